// BlobStore for one process: bytes by owner and key (a copy in, a copy out).
import type { BlobStore } from '../blob-store.js';

export class MemoryBlobStore implements BlobStore {
  readonly #blobs = new Map<string, Buffer>();

  async put(ownerId: string, key: string, bytes: Buffer): Promise<void> {
    this.#blobs.set(`${ownerId}\u0000${key}`, Buffer.from(bytes));
  }

  async get(ownerId: string, key: string): Promise<Buffer | undefined> {
    const bytes = this.#blobs.get(`${ownerId}\u0000${key}`);
    return bytes === undefined ? undefined : Buffer.from(bytes);
  }

  async delete(ownerId: string, key: string): Promise<boolean> {
    return this.#blobs.delete(`${ownerId}\u0000${key}`);
  }
}
