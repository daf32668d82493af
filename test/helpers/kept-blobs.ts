// A BlobStore that keeps its bytes in this process: the blobs of a storage that tests share between
// several apps as if they were instances on one database (a Memory storage keeps none: nobody else
// would read them).
import type { BlobStore } from '../../src/platform/storage/index.js';

export function keptBlobs(): BlobStore {
  const blobs = new Map<string, Buffer>();
  const key = (ownerId: string, id: string): string => `${ownerId}\u0000${id}`;
  return {
    put: async (ownerId, id, bytes) => void blobs.set(key(ownerId, id), Buffer.from(await bytes())),
    get: async (ownerId, id) => {
      const bytes = blobs.get(key(ownerId, id));
      return bytes === undefined ? undefined : Buffer.from(bytes);
    },
    delete: async (ownerId, id) => blobs.delete(key(ownerId, id)),
  };
}
