// Stored workflow definitions under their owner (foreign ≡ unknown by construction), with a per-owner
// index for listing newest first and for the MaxDefinitionsPerOwner count. Definitions do not expire;
// they live until deleted (or the host restarts).
import type { Clock } from '../../platform/clock/index.js';
import { OwnedStore, type Owner } from '../../platform/ownership/index.js';
import { MemoryTtlStore } from '../../platform/store/index.js';
import type { StoredWorkflow } from './workflow-definition.js';

const RETAINED_MS = 100 * 365 * 24 * 60 * 60 * 1000;

export class DefinitionStore {
  readonly #store: OwnedStore<StoredWorkflow>;
  /** Owner id → workflow ids, oldest first. */
  readonly #index = new Map<string, string[]>();

  constructor(options: { readonly clock: Clock }) {
    this.#store = new OwnedStore(new MemoryTtlStore<StoredWorkflow>({ clock: options.clock }));
  }

  find(owner: Owner, id: string): Promise<StoredWorkflow | undefined> {
    return this.#store.find(owner, id);
  }

  count(owner: Owner): number {
    return this.#index.get(owner.ownerId)?.length ?? 0;
  }

  /** Indexes synchronously first, so a count check followed by put cannot be overtaken by another submit. */
  async put(workflow: StoredWorkflow): Promise<void> {
    const ids = this.#index.get(workflow.ownerId) ?? [];
    ids.push(workflow.id);
    this.#index.set(workflow.ownerId, ids);
    await this.#store.put({ ownerId: workflow.ownerId }, workflow.id, workflow, RETAINED_MS);
  }

  /** The owner's workflows, newest first. */
  async list(owner: Owner): Promise<StoredWorkflow[]> {
    const ids = this.#index.get(owner.ownerId) ?? [];
    const found = await Promise.all(ids.map((id) => this.#store.find(owner, id)));
    return found.filter((w): w is StoredWorkflow => w !== undefined).reverse();
  }

  async remove(owner: Owner, id: string): Promise<boolean> {
    const removed = await this.#store.remove(owner, id);
    const ids = this.#index.get(owner.ownerId);
    if (ids !== undefined) {
      const next = ids.filter((x) => x !== id);
      if (next.length > 0) this.#index.set(owner.ownerId, next);
      else this.#index.delete(owner.ownerId);
    }
    return removed;
  }
}
