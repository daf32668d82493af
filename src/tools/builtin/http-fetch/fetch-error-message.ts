// Caller-facing text for a fetch that failed on the wire: a category only, never the error's own
// message or stack (which can carry resolved addresses and internals); details belong in logs.

export interface FetchFailureContext {
  readonly host: string;
  readonly cancelled: boolean;
  readonly timedOut: boolean;
  readonly timeoutSeconds: number;
}

export function fetchErrorMessage(error: unknown, context: FetchFailureContext): string {
  if (context.cancelled) return 'The request was cancelled.';
  if (context.timedOut) return `The request to "${context.host}" timed out after ${context.timeoutSeconds} s.`;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  let reason = 'the request failed';
  if (/^(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EADDRNOTAVAIL)$/.test(code)) reason = 'could not connect';
  else if (/CERT|TLS|SSL/.test(code)) reason = 'the TLS connection could not be established or verified';
  else if (code.startsWith('HPE_')) reason = 'the server sent a malformed response';
  else if (code === 'ECONNRESET' || code === 'EPIPE' || code === '') reason = 'the connection closed before the response completed';
  return `The request to "${context.host}" failed: ${reason}.`;
}
