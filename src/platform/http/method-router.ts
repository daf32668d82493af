// Remembers every registered route so a request for a known path with the wrong method can be
// answered 405 with `Allow`, instead of the 404 Fastify would give.
import FindMyWay, { type HTTPMethod } from 'find-my-way';

export class MethodRouter {
  readonly #router = FindMyWay();
  readonly #methods = new Set<HTTPMethod>();

  add(method: string | readonly string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      const upper = (m as string).toUpperCase() as HTTPMethod;
      if (this.#router.hasRoute(upper, url)) continue;
      this.#router.on(upper, url, () => undefined);
      this.#methods.add(upper);
    }
  }

  /** Methods that would match this path, sorted; empty when the path is unknown. */
  allowed(path: string): string[] {
    const allowed: string[] = [];
    for (const method of this.#methods) {
      if (this.#router.find(method, path)) allowed.push(method);
    }
    return allowed.sort();
  }
}
