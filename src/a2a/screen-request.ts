// The hostile side's JSON-RPC, checked before the SDK reads it (DESIGN §20): one request object per HTTP
// request (a batch is refused: A2A has none), JSON-RPC 2.0's envelope, and for the two send methods a
// message of at most 100 parts, each a plain object with exactly one of text (a string) or data (JSON of
// at most 64 KiB) — a file part (raw bytes or a URL) is the protocol's ContentTypeNotSupported. Task ids
// and context ids are bounded strings. The SDK's readers coerce what they are given (a number where a
// string belongs, a null part), so nothing reaches them unchecked; a refusal is an error response,
// nothing is looked up or started. `configuration.blocking: false` is read as `returnImmediately: true`.
import { ContentTypeNotSupportedError, RequestMalformedError, toJsonRpcError, A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { MAX_TEXT_PARTS } from './read-message.js';

export type RpcId = string | number | null;

export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface RpcErrorResponse {
  readonly jsonrpc: '2.0';
  readonly id: RpcId;
  readonly error: RpcError;
}

export type Screened = { readonly ok: true; readonly id: RpcId; readonly method: string; readonly request: Record<string, unknown> } | { readonly ok: false; readonly response: RpcErrorResponse };

/** A data part's JSON, at most (the approval contract's payload bound). */
export const MAX_DATA_PART_BYTES = 65_536;
const MAX_ID_LENGTH = 200;
const SEND_METHODS = new Set(['SendMessage', 'SendStreamingMessage']);
const TASK_METHODS = new Set(['GetTask', 'CancelTask', 'SubscribeToTask']);

export function invalidRequest(message: string, id: RpcId = null): RpcErrorResponse {
  return { jsonrpc: '2.0', id, error: { code: A2A_ERROR_CODE.INVALID_REQUEST, message } };
}

export function errorResponse(error: unknown, id: RpcId): RpcErrorResponse {
  return { jsonrpc: '2.0', id, error: toJsonRpcError(error) };
}

export function screenRequest(body: unknown): Screened {
  if (Array.isArray(body)) return refused(invalidRequest('Batch requests are not supported: send one JSON-RPC request per HTTP request.'));
  if (!isObject(body)) return refused(invalidRequest('The body must be one JSON-RPC 2.0 request object.'));
  const id = body.id === undefined ? null : body.id;
  if (!(id === null || (typeof id === 'string' && id.length <= MAX_ID_LENGTH) || (typeof id === 'number' && Number.isSafeInteger(id)))) {
    return refused(invalidRequest(`The request id must be a string of at most ${MAX_ID_LENGTH} characters, an integer or null.`));
  }
  if (body.jsonrpc !== '2.0') return refused(invalidRequest('The request must say "jsonrpc": "2.0".', id));
  const method = body.method;
  if (typeof method !== 'string' || method === '') return refused(invalidRequest('The request must name its method.', id));
  const params = body.params;
  if (params !== undefined && !isObject(params)) return refused(errorResponse(new RequestMalformedError('params must be an object.'), id));
  try {
    if (SEND_METHODS.has(method)) {
      checkSendParams(params ?? {});
      return { ok: true, id, method, request: { ...body, params: withBlocking(params ?? {}) } };
    }
    if (TASK_METHODS.has(method)) checkString(params?.id, 'params.id', true);
  } catch (error) {
    return refused(errorResponse(error, id));
  }
  return { ok: true, id, method, request: body };
}

/**
 * `configuration.blocking: false` (how A2A's earlier clients ask not to wait) as 1.0's
 * `returnImmediately: true`, which the SDK's reader keeps (it drops `blocking`).
 */
function withBlocking(params: Record<string, unknown>): Record<string, unknown> {
  const configuration = params.configuration as Record<string, unknown> | undefined;
  if (configuration?.blocking !== false || configuration.returnImmediately !== undefined) return params;
  return { ...params, configuration: { ...configuration, returnImmediately: true } };
}

function checkSendParams(params: Record<string, unknown>): void {
  const { message, configuration, metadata } = params;
  if (!isObject(message)) throw new RequestMalformedError('params.message must be a message object.');
  if (configuration !== undefined && !isObject(configuration)) throw new RequestMalformedError('params.configuration must be an object.');
  for (const flag of ['blocking', 'returnImmediately']) {
    if (configuration?.[flag] !== undefined && typeof configuration[flag] !== 'boolean') throw new RequestMalformedError(`params.configuration.${flag} must be a boolean.`);
  }
  if (metadata !== undefined && !isObject(metadata)) throw new RequestMalformedError('params.metadata must be an object.');
  for (const field of ['messageId', 'contextId', 'taskId']) checkString(message[field], `message.${field}`, false);
  if (message.role !== 'ROLE_USER') throw new RequestMalformedError('message.role must be "ROLE_USER".');
  if (message.metadata !== undefined && !isObject(message.metadata)) throw new RequestMalformedError('message.metadata must be an object.');
  for (const field of ['extensions', 'referenceTaskIds']) {
    const list = message[field];
    if (list !== undefined && !(Array.isArray(list) && list.length <= MAX_TEXT_PARTS && list.every((item) => typeof item === 'string' && item.length <= MAX_ID_LENGTH))) {
      throw new RequestMalformedError(`message.${field} must be a short list of short strings.`);
    }
  }
  const parts = message.parts;
  if (!Array.isArray(parts) || parts.length === 0) throw new RequestMalformedError('message.parts must be a non-empty list.');
  if (parts.length > MAX_TEXT_PARTS) throw new RequestMalformedError(`message.parts has more than ${MAX_TEXT_PARTS} parts.`);
  for (const part of parts as unknown[]) checkPart(part);
}

function checkPart(part: unknown): void {
  if (!isObject(part)) throw new RequestMalformedError('Every part must be an object.');
  if (part.raw !== undefined || part.url !== undefined) {
    throw new ContentTypeNotSupportedError('File parts are not accepted: send text parts (or one data part deciding a waiting call).');
  }
  const kinds = ['text', 'data'].filter((kind) => part[kind] !== undefined && part[kind] !== null);
  if (kinds.length !== 1) throw new RequestMalformedError('Every part carries exactly one of text or data.');
  if (part.text !== undefined && typeof part.text !== 'string') throw new RequestMalformedError('A text part’s text must be a string.');
  if (part.data !== undefined && Buffer.byteLength(JSON.stringify(part.data), 'utf8') > MAX_DATA_PART_BYTES) {
    throw new RequestMalformedError(`A data part is over ${MAX_DATA_PART_BYTES} bytes as JSON.`);
  }
  for (const field of ['mediaType', 'filename']) checkString(part[field], `part.${field}`, false);
  if (part.metadata !== undefined && !isObject(part.metadata)) throw new RequestMalformedError('part.metadata must be an object.');
}

function checkString(value: unknown, name: string, required: boolean): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value.length > MAX_ID_LENGTH) throw new RequestMalformedError(`${name} must be a string of at most ${MAX_ID_LENGTH} characters.`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refused(response: RpcErrorResponse): Screened {
  return { ok: false, response };
}
