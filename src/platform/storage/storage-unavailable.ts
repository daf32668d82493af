// What a storage provider throws when its backing service cannot be reached or failed transiently:
// the HTTP edge answers 503 "Service unavailable" and /readyz names the `storage` category. The cause
// (driver text, host names) stays in the log; it never reaches a caller.

/**
 * The `Retry-After` of that 503, in seconds: the PostgreSQL provider's bound on one statement
 * (decision 3511), so a retry either finds the database back or is told so again as quickly.
 */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  readonly code = 'storage-unavailable';

  constructor(options?: { readonly cause?: unknown }) {
    super('The storage is unavailable.', options);
  }
}

export function isStorageUnavailable(error: unknown): error is StorageUnavailableError {
  return error instanceof StorageUnavailableError;
}
