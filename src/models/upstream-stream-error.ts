// An error reported inside an otherwise successful stream (an OpenAI `error` chunk, an Anthropic
// `event: error`). The payload is kept for classification only; it is never logged or shown.
export class UpstreamStreamError extends Error {
  readonly payload: unknown;
  constructor(payload: unknown) {
    super('The upstream stream reported an error.');
    this.name = 'UpstreamStreamError';
    this.payload = payload;
  }
}
