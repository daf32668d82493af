// A route's own hooks as Fastify's onRoute hands them over (none, one, or a list), with one more
// after them: how a hook is given only to the routes that need it, so no other request pays for it.

export function withHook<Hook>(existing: Hook | readonly Hook[] | undefined, hook: Hook): Hook[] {
  if (existing === undefined) return [hook];
  return Array.isArray(existing) ? [...(existing as readonly Hook[]), hook] : [existing as Hook, hook];
}
