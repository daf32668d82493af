// BlobStore for one process: it keeps nothing. Blobs exist for other instances, and no other instance
// shares a Memory storage (blob-store.ts); holding every archive a second time in memory would only
// cost the host.
import type { BlobStore } from '../blob-store.js';

export class MemoryBlobStore implements BlobStore {
  async put(): Promise<void> {
    // Nothing to share.
  }

  async get(): Promise<Buffer | undefined> {
    return undefined;
  }

  async delete(): Promise<boolean> {
    return false;
  }
}
