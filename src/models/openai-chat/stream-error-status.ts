// The HTTP status an OpenAI `error` event stands for when it arrives before any output (the AI SDK's
// rule, kept so such an event is retried or not exactly as before): a numeric `code` that is an
// error status, else words in `code`/`type` (rate_limit → 429, authentication → 401, invalid → 400,
// overload → 503, …), else 500. The event's message is never read.
export function streamErrorStatus(payload: unknown): number {
  const error = asRecord(payload);
  if (error === undefined || !isStreamError(error)) return 500;
  const code = error.code;
  if (typeof code === 'number' && isErrorStatus(code)) return code;
  if (typeof code === 'string' && /^\d{3}$/.test(code) && isErrorStatus(Number(code))) return Number(code);
  const words = [code, error.type]
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .join(' ')
    .toLowerCase();
  if (words.includes('insufficient_quota') || words.includes('rate_limit')) return 429;
  if (words.includes('authentication')) return 401;
  if (words.includes('permission')) return 403;
  if (words.includes('not_found')) return 404;
  if (words.includes('invalid') || words.includes('bad_request') || words.includes('context_length')) return 400;
  if (words.includes('overload')) return 503;
  if (words.includes('timeout')) return 504;
  return 500;
}

/** The SDK counted only an object with a string message and a type, code or param as an error. */
function isStreamError(error: Record<string, unknown>): boolean {
  return typeof error.message === 'string' && (typeof error.type === 'string' || 'code' in error || 'param' in error);
}

function isErrorStatus(value: number): boolean {
  return Number.isInteger(value) && value >= 400 && value <= 599;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}
