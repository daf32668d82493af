// The bridge between Fastify and the MCP package's Web-standard face. In: a `Request` with the
// client's method, URL and headers (the body goes separately, already parsed and bounded by the
// route) and a signal that aborts when the client goes away before its answer. Out: the `Response`
// written as one body — the gateway never streams — under a drain deadline, so a client that stops
// reading holds the connection and that one bounded body for at most `drainMs`, then loses both.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestOrigin } from '../platform/http/index.js';

/** The request as the MCP package reads it; its signal aborts when the response closes unfinished. */
export function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return new Request(`${requestOrigin(request)}${request.url}`, { method: request.method, headers, signal: gone.signal });
}

/** An answer body the gateway writes at once, or a refusal to stream (none of its exchanges streams; one that did would be a bug here). */
export async function sendWebResponse(reply: FastifyReply, response: Response, drainMs: number): Promise<FastifyReply> {
  if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
    await response.body?.cancel();
    throw new Error('the MCP server package answered with a stream, which the gateway does not serve');
  }
  const body = Buffer.from(await response.arrayBuffer());
  const raw = reply.raw;
  const deadline = setTimeout(() => {
    if (!raw.writableFinished) raw.destroy();
  }, drainMs);
  deadline.unref();
  raw.once('close', () => clearTimeout(deadline));
  for (const [name, value] of response.headers) if (name !== 'content-length') void reply.header(name, value);
  return reply.code(response.status).send(body);
}
