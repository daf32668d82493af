// Wraps a failure of the staging file system itself (disk full, permissions): not the archive's
// fault, so it must surface as a server error rather than be mistaken for a guard.
export class StagingWriteFailed extends Error {
  constructor(cause: unknown) {
    super('Writing to the staging directory failed.', { cause });
    this.name = 'StagingWriteFailed';
  }
}
