// Remembers every registered route so a request for a known path with the wrong method can be
// answered 405 with `Allow`, instead of the 404 Fastify would give. `Allow` lists the methods of the
// route the path belongs to (the most specific pattern matching it, as the router itself would pick),
// so `/api/workflows/validate` allows POST only, not the methods of `/api/workflows/{workflowId}`.
import FindMyWay, { type HTTPMethod } from 'find-my-way';

export class MethodRouter {
  readonly #router = FindMyWay();
  readonly #methods = new Set<HTTPMethod>();

  add(method: string | readonly string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      const upper = (m as string).toUpperCase() as HTTPMethod;
      if (this.#router.hasRoute(upper, url)) continue;
      this.#router.on(upper, url, () => undefined, { pattern: url });
      this.#methods.add(upper);
    }
  }

  /** Methods of the route this path belongs to, sorted; empty when the path is unknown. */
  allowed(path: string): string[] {
    const matches: Array<{ method: HTTPMethod; pattern: string }> = [];
    for (const method of this.#methods) {
      const found = this.#router.find(method, path);
      if (found) matches.push({ method, pattern: (found.store as { pattern: string }).pattern });
    }
    const best = matches.map((m) => m.pattern).sort(bySpecificity)[0];
    return matches.filter((m) => m.pattern === best).map((m) => m.method).sort();
  }
}

/** Segment by segment, static text before a parameter before a wildcard (the router's own priority). */
function bySpecificity(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const diff = rank(as[i] ?? '') - rank(bs[i] ?? '');
    if (diff !== 0) return diff;
  }
  return bs.length - as.length;
}

function rank(segment: string): number {
  if (segment.includes('*')) return 2;
  return segment.includes(':') ? 1 : 0;
}
