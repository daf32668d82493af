export type { Storage, StorageProvider } from './storage.js';
export type {
  ClaimQuery,
  EpochMs,
  InsertResult,
  InsertRules,
  ListPage,
  ListQuery,
  NewRecord,
  OutboxEntry,
  RecordKey,
  RecordPatch,
  RecordStore,
  StoredRecord,
  UpdateGuard,
} from './records.js';
export type { CommitOptions, CommitResult, JournalChange, JournalEvent, JournalListener, RunItem, RunJournal } from './run-journal.js';
export type { SignalBus, SignalHandler } from './signal-bus.js';
export { RATE_WINDOW_MS, type RateDecision, type RateWindows } from './rate-windows.js';
export type { SpendCounter, SpendCounters } from './spend-counters.js';
export type { SlotStore } from './slot-store.js';
export type { BlobStore } from './blob-store.js';
export { StorageUnavailableError, isStorageUnavailable, STORAGE_RETRY_AFTER_SECONDS } from './storage-unavailable.js';
export { InvalidCursorError, decodeCursor, encodeCursor, compareNewestFirst, CURSOR_PATTERN, MAX_CURSOR_LENGTH } from './list-cursor.js';
export { isStorableKey, MAX_KEY_BYTES, UnstorableKeyError } from './storable-key.js';
export { createMemoryStorage } from './memory/create-memory-storage.js';
export { createStorage, migrateStorage, StorageStartError, type StorageDeps } from './create-storage.js';
// The Postgres provider is not re-exported: createStorage imports it when configured, so a Memory
// service never loads `pg`. Tests and benchmarks import postgres/create-postgres-storage.js.
export type { PostgresStorageOptions } from './postgres/create-postgres-storage.js';
export type { MigrationOutcome } from './postgres/migrations/migrate.js';
