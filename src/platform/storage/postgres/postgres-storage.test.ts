// The storage contract on a real PostgreSQL (the run's embedded server, a schema of this file's own),
// with a peer: a second storage on the same schema is a second instance.
import { afterAll } from 'vitest';
import { ManualClock } from '../../clock/index.js';
import { describeStorageContract } from '../../../../test/contract/storage-contract.js';
import { freshPostgres } from '../../../../test/helpers/postgres.js';
import { createPostgresStorage } from './create-postgres-storage.js';

const database = freshPostgres('contract');
const silent = { info: () => undefined, warn: () => undefined };
let migrated = false;

afterAll(async () => database.drop());

describeStorageContract(
  'Postgres',
  async () => {
    if (migrated) await database.truncate();
    migrated = true;
    const clock = new ManualClock();
    const options = { clock, clockSource: 'injected' as const, connectionString: database.connectionString, schema: database.schema, maxConnections: 10, log: silent };
    const storage = await createPostgresStorage(options);
    const peer = await createPostgresStorage(options);
    return { storage, clock, peer, close: async () => void (await Promise.all([storage.close(), peer.close()])) };
  },
  { peers: true },
);
