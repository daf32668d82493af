// The one error staging throws for a refused archive. `guard` is stable and `detail` is the guard's
// fixed caller-safe sentence; whatever tripped the guard stays in `cause`, for the log only.
import { archiveGuardDetail, type ArchiveGuard } from './archive-guard.js';

export interface ArchiveRejectedOptions {
  readonly cause?: unknown;
  /** Where the guard tripped (a line, a field name); never archive content. */
  readonly hint?: string;
}

export class ArchiveRejected extends Error {
  readonly code = 'archive-rejected';
  readonly guard: ArchiveGuard;
  readonly detail: string;

  constructor(guard: ArchiveGuard, options: ArchiveRejectedOptions = {}) {
    const detail = archiveGuardDetail(guard, options.hint);
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ArchiveRejected';
    this.guard = guard;
    this.detail = detail;
  }
}

export function isArchiveRejected(value: unknown): value is ArchiveRejected {
  return value instanceof ArchiveRejected;
}
