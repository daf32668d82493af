// The one log line per HTTP request: fields the framework chose and produced itself (method, route
// pattern, status, duration, a digest of the owner; the request id either from the request's child
// logger or, written through the root logger, as the line's own first field: the same bytes), never
// the URL, headers, body or anything a caller, model or tool wrote. That is why the logger writes it
// as it is, without the deep copy and secret scan every other logged object gets.

import { FrameworkLogLine, jsonNumber, jsonString, jsonStringOrNull } from './framework-log-line.js';

/** The label of the request id in every line of a request (Fastify's `requestIdLogLabel`). */
export const REQUEST_ID_LOG_LABEL = 'reqId';

export class RequestLogLine extends FrameworkLogLine {
  /** Written first, where a child logger's `reqId` binding would be; private, so a copy of the line (`{ ...line }`) leaves it out. */
  readonly #requestId: string | null;

  constructor(
    /** One of the methods Node's HTTP parser accepts (it refuses any other). */
    readonly method: string,
    /** The matched route's pattern (`/api/bundles/:handle`), null when no route matched. */
    readonly route: string | null,
    readonly status: number,
    readonly durationMs: number,
    /** A digest of the caller's owner id, null before or without authentication. */
    readonly owner: string | null,
    /** The request's id, when the line is written through a logger that does not bind it. */
    requestId: string | null = null,
  ) {
    super();
    this.#requestId = requestId;
  }

  override logFields(): string {
    const id = this.#requestId === null ? '' : `"${REQUEST_ID_LOG_LABEL}":${jsonString(this.#requestId)},`;
    return `${id}"method":${jsonString(this.method)},"route":${jsonStringOrNull(this.route)},"status":${jsonNumber(this.status)},"durationMs":${jsonNumber(this.durationMs)},"owner":${jsonStringOrNull(this.owner)}`;
  }
}
