// The HTTP request histogram's children, bound per route (by the route's own config object, which
// Fastify keeps for the route's lifetime), method and status, so observing a request costs a weak-map
// lookup and two small-map lookups: no label strings are built or hashed per request.
import type { HistogramChild, ServiceMetrics } from '../metrics/index.js';

export const UNMATCHED_ROUTE = 'unmatched';

export class HttpRequestMetrics {
  readonly #metrics: ServiceMetrics;
  readonly #byRoute = new WeakMap<object, Map<string, Map<number, HistogramChild>>>();

  constructor(metrics: ServiceMetrics) {
    this.#metrics = metrics;
  }

  /** `routeConfig` identifies the route (Fastify's per-route config object); `route` is its pattern, null when none matched. */
  observe(routeConfig: object, route: string | null, method: string, status: number, seconds: number): void {
    let byMethod = this.#byRoute.get(routeConfig);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#byRoute.set(routeConfig, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let child = byStatus.get(status);
    if (child === undefined) {
      child = this.#metrics.httpRequestDuration.child(method, route ?? UNMATCHED_ROUTE, String(status));
      byStatus.set(status, child);
    }
    child.observe(seconds);
  }
}
