// `Idempotency-Key` on the routes that declare it (DESIGN.md §14; route config `idempotent`). A JSON
// route is admitted before its handler (after authentication, rate limiting and validation): the key is
// checked (400), and its stored record decides — first use goes on, a repeat with the same body
// fingerprint (SHA-256 of the body's bytes, taken by the JSON parser) gets the first answer again with
// `Idempotent-Replayed: true`, a repeat while the first is being answered is 409 `Request in progress`,
// the same key with another body 422 `Idempotency key reused`. An upload is admitted by its handler
// once the file part is read (its fingerprint is the file's), through `admitIdempotent`. The answer is
// kept when it is 2xx or a 4xx other than 401 and 429; otherwise the key is let go, so a retry runs.
// A route may name members of its answer that are never kept (the webhook secret): a replay omits them.
import { createHash } from 'node:crypto';
import { Type } from '../vendor/typebox.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_PATTERN, isIdempotencyKey, keyRecordId, type IdempotencyStore, type StoredAnswer } from '../idempotency/index.js';
import { ProblemError } from '../problems/index.js';
import { withHook } from './route-hooks.js';
import { routeOf } from './route-config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Takes an Idempotency-Key: `body` admits it before the handler; `upload` lets the handler admit it with the file's fingerprint. */
    readonly idempotent?: 'body' | 'upload';
    /**
     * Members of a JSON answer never kept with its key (a secret answered once), so a replay answers
     * without them: the kept record then holds nothing the service would not answer again.
     */
    readonly idempotentKeepsWithout?: readonly string[];
  }
  interface FastifyRequest {
    /** SHA-256 (base64url) of the JSON body's bytes, when the request carries an Idempotency-Key. */
    bodyDigest: string | null;
    /** The key this request answers, once admitted. */
    idempotency: { readonly ownerId: string; readonly id: string; readonly fingerprint: string } | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The header as routes document it (OpenAPI); the hook checks it whatever the route validates. */
export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      pattern: IDEMPOTENCY_KEY_PATTERN,
      description: 'Makes a retry safe (DESIGN §14): a repeat with the same body gets the first answer again (Idempotent-Replayed: true); 409 while the first is in progress; 422 with another body.',
    }),
  ),
});
const EMPTY_DIGEST = createHash('sha256').digest('base64url');

/** The digest of a body's bytes, as the key's fingerprint. */
export function bodyFingerprint(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/** Thrown (and answered) when an upload's key names an answer already given. */
export class IdempotentReplay extends Error {
  override readonly name = 'IdempotentReplay';
  constructor(readonly answer: StoredAnswer) {
    super('answered before under this Idempotency-Key');
  }
}

export function installIdempotency(app: FastifyInstance, store: IdempotencyStore, log: { warn(details: object, message: string): void }): void {
  app.decorateRequest('bodyDigest', null);
  app.decorateRequest('idempotency', null);
  const admit = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (request.headers[IDEMPOTENCY_HEADER] === undefined) return undefined;
    const replay = await admitIdempotent(store, request, request.bodyDigest ?? EMPTY_DIGEST);
    return replay === null ? undefined : sendReplay(reply, replay);
  };
  const keep = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const admitted = request.idempotency;
    if (admitted === null) return payload;
    request.idempotency = null;
    const status = reply.statusCode;
    const kept = (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 401 && status !== 429);
    try {
      if (kept && (typeof payload === 'string' || Buffer.isBuffer(payload) || payload === null)) {
        const location = reply.getHeader('location');
        const contentType = reply.getHeader('content-type');
        await store.complete(admitted.ownerId, admitted.id, admitted.fingerprint, {
          status,
          location: typeof location === 'string' ? location : null,
          contentType: typeof contentType === 'string' ? contentType : null,
          body: payload === null ? '' : keptBody(payload.toString(), routeOf(request).idempotentKeepsWithout),
        });
      } else {
        await store.release(admitted.ownerId, admitted.id);
      }
    } catch (err) {
      log.warn({ err }, 'recording the answer to an Idempotency-Key failed; a retry may see it in progress');
    }
    return payload;
  };
  // Only the routes that take a key get the hooks: every other request (a poll, a read) pays nothing
  // for them. A `body` route is admitted before its handler; an `upload` route's handler admits it.
  app.addHook('onRoute', (route) => {
    const idempotent = route.config?.idempotent;
    if (idempotent === undefined) return;
    if (idempotent === 'body') route.preHandler = withHook(route.preHandler, admit);
    route.onSend = withHook(route.onSend, keep);
  });
}

/** The answer's body as kept: a JSON object without the members the route never keeps. */
function keptBody(body: string, without: readonly string[] | undefined): string {
  if (without === undefined || without.length === 0) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return body;
  return JSON.stringify(Object.fromEntries(Object.entries(parsed).filter(([name]) => !without.includes(name))));
}

/**
 * Admits a request under its Idempotency-Key with this fingerprint: null to go on (the answer is kept
 * when sent), or the answer to send again. Throws the 400, 409 and 422 problems.
 */
export async function admitIdempotent(store: IdempotencyStore, request: FastifyRequest, fingerprint: string): Promise<StoredAnswer | null> {
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return null;
  if (!isIdempotencyKey(key)) throw new ProblemError('validation-failed', 'The Idempotency-Key header must be 1 to 255 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-", sent once.');
  const ownerId = request.principal?.ownerId ?? `ip:${request.ip}`;
  const id = keyRecordId(request.method, request.url.split('?')[0] ?? request.url, key);
  const admission = await store.begin(ownerId, id, fingerprint);
  switch (admission.kind) {
    case 'proceed':
      request.idempotency = { ownerId, id, fingerprint };
      return null;
    case 'replay':
      return admission.answer;
    case 'in-progress':
      throw new ProblemError('request-in-progress', 'A request with this Idempotency-Key is still being answered; retry in a moment.', { headers: { 'retry-after': '1' } });
    case 'reused':
      throw new ProblemError('idempotency-key-reused', 'This Idempotency-Key was used for a request with another body; use a new key for a new request.');
  }
}

export function sendReplay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  reply.code(answer.status).header('idempotent-replayed', 'true');
  if (answer.location !== null) reply.header('location', answer.location);
  if (answer.contentType !== null) reply.header('content-type', answer.contentType);
  return reply.send(answer.body === '' ? null : answer.body);
}
