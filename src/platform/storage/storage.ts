// The storage port: everything the service keeps beyond one request, behind one interface injected at
// the composition root. Two providers: Memory (one process, nothing survives a restart: SPEC.md rule 4)
// and Postgres (the system of record shared by every instance: DESIGN §11). Features never know which.
import type { Clock } from '../clock/index.js';
import type { BlobStore } from './blob-store.js';
import type { RateWindows } from './rate-windows.js';
import type { RecordStore } from './records.js';
import type { RunJournal } from './run-journal.js';
import type { SignalBus } from './signal-bus.js';
import type { SlotStore } from './slot-store.js';
import type { SpendCounters } from './spend-counters.js';

export type StorageProvider = 'Memory' | 'Postgres';

export interface Storage {
  readonly provider: StorageProvider;
  /** True when state outlives this process and is shared with other instances. */
  readonly durable: boolean;
  /**
   * The time leases, TTLs and everything stored are judged by: the injected clock (Memory), or the
   * database's (Postgres: one clock for every instance, whatever each host's clock says).
   */
  readonly clock: Clock;
  readonly records: RecordStore;
  readonly journal: RunJournal;
  readonly signals: SignalBus;
  readonly rates: RateWindows;
  readonly slots: SlotStore;
  readonly spend: SpendCounters;
  readonly blobs: BlobStore;
  /** True while the backing service answers (the `storage` readiness category). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
