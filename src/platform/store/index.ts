export type { TtlStore } from './ttl-store.js';
export { MemoryTtlStore, type MemoryTtlStoreOptions } from './memory-ttl-store.js';
export { startSweeper, type StartSweeperOptions, type Sweeper } from './start-sweeper.js';
