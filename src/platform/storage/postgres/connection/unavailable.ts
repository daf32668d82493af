// Which driver failures mean "the database cannot be reached right now" (connection refused, reset
// or timed out, the server shutting down or refusing connections, the pool exhausted, a statement
// left unanswered past its bound — a server that is frozen or cut off): those become
// StorageUnavailableError (503 at the edge; the cause kept for the log). Everything else (a bad
// statement, a constraint) is a defect and propagates unchanged.
import { StorageUnavailableError } from '../../storage-unavailable.js';
import { scrubConnectionSecrets } from './connection-string.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
]);

// SQLSTATE: 08 connection exception, 53 insufficient resources (too many connections), 28 invalid
// authorization, 57P01-57P03 shutdown / crash / cannot connect now, 3D000 no such database.
const SQLSTATE = /^(?:08|53|28)...$|^57P0[123]$|^3D000$/;

const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|is not queryable|Cannot use a pool after calling end|Connection terminated due to connection timeout|Query read timeout/i;

export function isUnavailableCause(error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  const errors = (error as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isUnavailableCause(inner));
}

/** The error to throw to callers: StorageUnavailableError for an unreachable database, else as is. */
export function toStorageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return error;
  return isUnavailableCause(error) ? new StorageUnavailableError({ cause: error }) : error;
}

/** One line saying what failed (the driver's code and message), with the connection string's secrets hidden. */
export function describeFailure(error: unknown, connectionString?: string): string {
  const target = error instanceof StorageUnavailableError ? error.cause : error;
  const { code, message, errors } = (target ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  let text = typeof message === 'string' ? message : '';
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  if (text === '' && first instanceof Error) text = first.message;
  if (text === '') text = typeof code === 'string' ? code : String(target);
  if (typeof code === 'string' && !text.includes(code)) text = `${code}: ${text}`;
  return scrubConnectionSecrets(text, connectionString);
}
