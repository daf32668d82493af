// What the stream helpers need to make their own requests: the origin, the headers every request
// carries (the bearer token) and the fetch implementation.
export interface Transport {
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: typeof globalThis.fetch;
}

export function pathOf(...segments: string[]): string {
  return segments.map((segment) => encodeURIComponent(segment)).join('/');
}
