import { ManualClock } from '../../clock/index.js';
import { describeStorageContract } from '../../../../test/contract/storage-contract.js';
import { createMemoryStorage } from './create-memory-storage.js';

describeStorageContract('Memory', async () => {
  const clock = new ManualClock();
  const storage = createMemoryStorage({ clock });
  return { storage, clock, close: () => storage.close() };
}, { peers: false });
