// The storage port's owned byte blobs (an uploaded archive, so any instance can stage and run it).
// Owned like records: another owner's key is a miss.

export interface BlobStore {
  put(ownerId: string, key: string, bytes: Buffer): Promise<void>;
  get(ownerId: string, key: string): Promise<Buffer | undefined>;
  delete(ownerId: string, key: string): Promise<boolean>;
}
