// Remembers every registered route so a request for a known path with the wrong method can be
// answered 405 with `Allow`, instead of the 404 Fastify would give. `Allow` lists the methods of the
// route the path belongs to (the most specific pattern matching it, as the router itself would pick),
// so `/api/workflows/validate` allows POST only, not the methods of `/api/workflows/{workflowId}`.
// The same rule catches what the router cannot: Fastify matches `GET /api/workflows/validate` to
// `GET /api/workflows/:workflowId` (no GET is more specific), yet the path belongs to the POST route.
import FindMyWay, { type HTTPMethod } from 'find-my-way';

interface Owner {
  readonly pattern: string;
  readonly methods: string[];
}

export class MethodRouter {
  readonly #router = FindMyWay();
  readonly #methods = new Set<HTTPMethod>();
  readonly #patterns = new Set<string>();
  /** Per pattern: whether a more specific pattern of the app can match some of its paths. */
  readonly #shadowable = new Map<string, boolean>();

  add(method: string | readonly string[], url: string): void {
    this.#patterns.add(url);
    this.#shadowable.clear();
    for (const m of Array.isArray(method) ? method : [method]) {
      const upper = (m as string).toUpperCase() as HTTPMethod;
      if (this.#router.hasRoute(upper, url)) continue;
      this.#router.on(upper, url, () => undefined, { pattern: url });
      this.#methods.add(upper);
    }
  }

  /** Methods of the route this path belongs to, sorted; empty when the path is unknown. */
  allowed(path: string): string[] {
    return this.#owner(path)?.methods ?? [];
  }

  /**
   * For a request the router matched to `pattern`: the methods of the more specific route the path
   * really belongs to (its request deserves a 405), or null when it belongs to `pattern`. Only patterns
   * another one can shadow pay for the lookup.
   */
  shadowedBy(pattern: string, path: string): string[] | null {
    let shadowable = this.#shadowable.get(pattern);
    if (shadowable === undefined) {
      shadowable = [...this.#patterns].some((other) => other !== pattern && overlap(other, pattern) && bySpecificity(other, pattern) < 0);
      this.#shadowable.set(pattern, shadowable);
    }
    if (!shadowable) return null;
    const owner = this.#owner(path);
    return owner === undefined || owner.pattern === pattern ? null : owner.methods;
  }

  #owner(path: string): Owner | undefined {
    const matches: Array<{ method: HTTPMethod; pattern: string }> = [];
    for (const method of this.#methods) {
      const found = this.#router.find(method, path);
      if (found) matches.push({ method, pattern: (found.store as { pattern: string }).pattern });
    }
    const best = matches.map((m) => m.pattern).sort(bySpecificity)[0];
    return best === undefined ? undefined : { pattern: best, methods: matches.filter((m) => m.pattern === best).map((m) => m.method).sort() };
  }
}

/** Whether some path matches both patterns (a parameter matches any segment, a wildcard the rest). */
function overlap(a: string, b: string): boolean {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    const x = as[i];
    const y = bs[i];
    if (x?.includes('*') === true || y?.includes('*') === true) return true;
    if (x === undefined || y === undefined) return false;
    if (x !== y && !x.includes(':') && !y.includes(':')) return false;
  }
  return true;
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
