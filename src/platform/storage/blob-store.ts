// The storage port's owned byte blobs, kept for the OTHER instances that share the storage (an
// uploaded archive, so any instance can stage and run it). Owned like records: another owner's key is
// a miss. A provider no other instance shares (Memory) keeps none — everything it would hand back is
// still on this host — so `put` never reads the bytes and `get` answers undefined.

export interface BlobStore {
  /** `bytes` is read only by a provider that keeps blobs. */
  put(ownerId: string, key: string, bytes: () => Promise<Buffer>): Promise<void>;
  get(ownerId: string, key: string): Promise<Buffer | undefined>;
  delete(ownerId: string, key: string): Promise<boolean>;
}
