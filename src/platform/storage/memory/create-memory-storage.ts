// The Memory provider: one process, nothing survives a restart (SPEC.md rule 4), the embedded default.
import type { Clock } from '../../clock/index.js';
import type { Storage } from '../storage.js';
import { MemoryBlobStore } from './memory-blob-store.js';
import { MemoryRateWindows } from './memory-rate-windows.js';
import { MemorySpendCounters } from './memory-spend-counters.js';
import { MemoryRecordStore } from './memory-record-store.js';
import { MemoryRunJournal } from './memory-run-journal.js';
import { MemorySignalBus } from './memory-signal-bus.js';
import { MemorySlotStore } from './memory-slot-store.js';
import { MemoryTable } from './memory-table.js';
import { withStorableKeys } from '../with-storable-keys.js';

export function createMemoryStorage(options: { readonly clock: Clock }): Storage {
  const table = new MemoryTable(options.clock);
  // Keys PostgreSQL could not keep are refused here too, so both providers answer them alike.
  return withStorableKeys({
    provider: 'Memory',
    durable: false,
    clock: options.clock,
    records: new MemoryRecordStore(table),
    journal: new MemoryRunJournal(table),
    signals: new MemorySignalBus(),
    rates: new MemoryRateWindows(options.clock),
    spend: new MemorySpendCounters(options.clock),
    slots: new MemorySlotStore(options.clock),
    blobs: new MemoryBlobStore(),
    ready: async () => true,
    close: async () => undefined,
  });
}
