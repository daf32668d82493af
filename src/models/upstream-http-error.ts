// A failed upstream HTTP exchange of a provider that does not go through the AI SDK: no response at
// all (`status` undefined: could not connect, TLS, reset before the status line), an error status,
// or a body that broke off after a 2xx. Kept for classification only (status, the lower-cased
// response headers for Retry-After, the underlying error for its network code); never logged whole.
export class UpstreamHttpError extends Error {
  readonly status: number | undefined;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number | undefined, headers: Readonly<Record<string, string>>, cause?: unknown) {
    super(status === undefined ? 'The upstream request failed.' : `The upstream answered ${status}.`, { cause });
    this.name = 'UpstreamHttpError';
    this.status = status;
    this.headers = headers;
  }
}
