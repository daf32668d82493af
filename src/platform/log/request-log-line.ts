// The one log line per HTTP request: fields the framework chose and produced itself (method, route
// pattern, status, duration, a digest of the owner; the request id comes from the request's child
// logger), never the URL, headers, body or anything a caller, model or tool wrote. That is why the
// logger writes it as it is, without the deep copy and secret scan every other logged object gets.

import { FrameworkLogLine, jsonNumber, jsonString, jsonStringOrNull } from './framework-log-line.js';

export class RequestLogLine extends FrameworkLogLine {
  constructor(
    /** One of the methods Node's HTTP parser accepts (it refuses any other). */
    readonly method: string,
    /** The matched route's pattern (`/api/bundles/:handle`), null when no route matched. */
    readonly route: string | null,
    readonly status: number,
    readonly durationMs: number,
    /** A digest of the caller's owner id, null before or without authentication. */
    readonly owner: string | null,
  ) {
    super();
  }

  override logFields(): string {
    return `"method":${jsonString(this.method)},"route":${jsonStringOrNull(this.route)},"status":${jsonNumber(this.status)},"durationMs":${jsonNumber(this.durationMs)},"owner":${jsonStringOrNull(this.owner)}`;
  }
}
