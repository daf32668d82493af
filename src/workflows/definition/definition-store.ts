// Stored workflow definitions in the storage port, under their owner (foreign ≡ unknown by
// construction), listed newest first; MaxDefinitionsPerOwner is checked atomically with the insert.
// Definitions do not expire; they live until deleted.
import type { Owner } from '../../platform/ownership/index.js';
import type { Storage } from '../../platform/storage/index.js';
import type { StoredWorkflow } from './workflow-definition.js';

const COLLECTION = 'workflow';
const STORED = 'Stored';

export class DefinitionStore {
  readonly #storage: Storage;

  constructor(options: { readonly storage: Storage }) {
    this.#storage = options.storage;
  }

  async find(owner: Owner, id: string): Promise<StoredWorkflow | undefined> {
    return (await this.#storage.records.get<StoredWorkflow>({ collection: COLLECTION, ownerId: owner.ownerId, id }))?.data;
  }

  /** Stores the definition unless its owner already stores `max`; false when refused. */
  async add(workflow: StoredWorkflow, max: number): Promise<boolean> {
    const result = await this.#storage.records.insert<StoredWorkflow>(
      { collection: COLLECTION, ownerId: workflow.ownerId, id: workflow.id, state: STORED, createdAt: workflow.createdAt, data: workflow },
      { ownerCap: { max, states: [STORED] } },
    );
    return result.outcome === 'inserted';
  }

  /** The owner's workflows, newest first (every one of them: at most MaxDefinitionsPerOwner). */
  async list(owner: Owner): Promise<StoredWorkflow[]> {
    const found: StoredWorkflow[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<Storage['records']['list']>> = await this.#storage.records.list<StoredWorkflow>(COLLECTION, owner.ownerId, { limit: 200, cursor });
      found.push(...page.records.map((record) => record.data as StoredWorkflow));
      cursor = page.nextCursor;
    } while (cursor !== null);
    return found;
  }

  remove(owner: Owner, id: string): Promise<boolean> {
    return this.#storage.records.delete({ collection: COLLECTION, ownerId: owner.ownerId, id });
  }
}
