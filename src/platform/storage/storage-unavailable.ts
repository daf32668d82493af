// What a storage provider throws when its backing service cannot be reached or failed transiently:
// the HTTP edge answers 503 "Service unavailable" and /readyz names the `storage` category. The cause
// (driver text, host names) stays in the log; it never reaches a caller.

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
