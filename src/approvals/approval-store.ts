// Approvals in the storage port (DESIGN.md §13, §11: they survive restarts and are decided through any
// instance). Each is kept in its owner's partition (scope: its run's job id), so the owner's reads are
// the owner's as everywhere else. Routing is an index beside it: one small record per role the approval
// is routed to (`role:<name>`) and one in the `open` partition the sweep reads (escalation, expiry,
// the pending gauge); each mirrors the approval's state and expires with it. The index only finds
// approvals; what one says is always read from its owner's record. (The owner collection keeps its
// first name, `workflow-approval`, so approvals stored before bundle runs could wait stay readable.)
import type { Owner } from '../platform/ownership/index.js';
import { compareNewestFirst, decodeCursor, encodeCursor, isStorableKey, type OutboxEntry, type RecordKey, type Storage, type StoredRecord } from '../platform/storage/index.js';
import { fromStored, type ApprovalData, type ApprovalState } from './approval-record.js';

export const APPROVAL_COLLECTION = 'workflow-approval';
const INDEX_COLLECTION = 'approval-index';
/** The index partition every open approval is in (what the sweep reads). */
const OPEN_PARTITION = 'open';

interface IndexEntry {
  readonly ownerId: string;
  readonly approvalId: string;
}

const rolePartition = (role: string): string => `role:${role}`;

function approvalKey(ownerId: string, approvalId: string): RecordKey {
  return { collection: APPROVAL_COLLECTION, ownerId, id: approvalId };
}

export class ApprovalStore {
  readonly #storage: Storage;

  constructor(options: { readonly storage: Storage }) {
    this.#storage = options.storage;
  }

  /** Stores a new Pending approval (with the outbox its request writes) and routes it to its roles. */
  async open(approval: ApprovalData, ownerId: string, outbox: readonly OutboxEntry[] = []): Promise<void> {
    await this.#storage.records.insert<ApprovalData>(
      {
        ...approvalKey(ownerId, approval.approvalId),
        scope: approval.jobId,
        state: approval.state,
        createdAt: approval.createdAt,
        data: approval,
      },
      undefined,
      outbox,
    );
    await this.#index(approval, ownerId, [OPEN_PARTITION, ...(approval.routedTo ?? []).map(rolePartition)]);
  }

  async get(owner: Owner, approvalId: string): Promise<ApprovalData | undefined> {
    const stored = await this.#storage.records.get<ApprovalData>(approvalKey(owner.ownerId, approvalId));
    return stored === undefined ? undefined : fromStored(stored.data);
  }

  /** A run's approvals, oldest first. */
  async forRun(owner: Owner, jobId: string): Promise<ApprovalData[]> {
    const found: ApprovalData[] = [];
    let cursor: string | null = null;
    do {
      const page: { records: StoredRecord<ApprovalData>[]; nextCursor: string | null } = await this.#storage.records.list<ApprovalData>(
        APPROVAL_COLLECTION,
        owner.ownerId,
        { scope: jobId, limit: 200, cursor },
      );
      found.push(...page.records.map((record) => fromStored(record.data)));
      cursor = page.nextCursor;
    } while (cursor !== null);
    return found.sort((a, b) => a.createdAt - b.createdAt || (a.approvalId < b.approvalId ? -1 : 1));
  }

  /** The owner's approvals, newest first, in the given states. */
  async mine(owner: Owner, query: { readonly states: readonly ApprovalState[]; readonly limit: number; readonly cursor: string | null }): Promise<{ approvals: ApprovalData[]; nextCursor: string | null }> {
    const page = await this.#storage.records.list<ApprovalData>(APPROVAL_COLLECTION, owner.ownerId, query);
    return { approvals: page.records.map((record) => fromStored(record.data)), nextCursor: page.nextCursor };
  }

  /**
   * Approvals routed to any of `roles`, newest first, in the given states: each role's partition read
   * from the same position, merged and deduplicated, so one cursor pages through all of them.
   */
  async routed(
    roles: readonly string[],
    query: { readonly states: readonly ApprovalState[]; readonly limit: number; readonly cursor: string | null },
  ): Promise<{ approvals: ApprovalData[]; nextCursor: string | null }> {
    if (query.cursor !== null) decodeCursor(query.cursor);
    const partitions = [...new Set(roles)].map(rolePartition).filter(isStorableKey);
    const pages = await Promise.all(partitions.map((partition) => this.#storage.records.list<IndexEntry>(INDEX_COLLECTION, partition, query)));
    const entries = new Map<string, StoredRecord<IndexEntry>>();
    for (const record of pages.flatMap((page) => page.records)) entries.set(record.id, record);
    const merged = [...entries.values()].sort(compareNewestFirst);
    const more = merged.length > query.limit || pages.some((page) => page.nextCursor !== null);
    const kept = merged.slice(0, query.limit);
    const approvals = await Promise.all(kept.map((entry) => this.get({ ownerId: entry.data.ownerId }, entry.data.approvalId)));
    const last = kept.at(-1);
    return {
      approvals: approvals.filter((approval): approval is ApprovalData => approval !== undefined && query.states.includes(approval.state)),
      nextCursor: more && last !== undefined ? encodeCursor(last) : null,
    };
  }

  /** The approval with this id routed to one of `roles`, with its owner; undefined when none is. */
  async findRouted(roles: readonly string[], approvalId: string): Promise<{ approval: ApprovalData; ownerId: string } | undefined> {
    for (const partition of [...new Set(roles)].map(rolePartition).filter(isStorableKey)) {
      const entry = await this.#storage.records.get<IndexEntry>({ collection: INDEX_COLLECTION, ownerId: partition, id: approvalId });
      if (entry === undefined) continue;
      const approval = await this.get({ ownerId: entry.data.ownerId }, approvalId);
      if (approval !== undefined) return { approval, ownerId: entry.data.ownerId };
    }
    return undefined;
  }

  /** Every still-open approval (the sweep's: escalation and expiry), oldest pages last; at most `max`. */
  async openAll(max: number): Promise<Array<{ approval: ApprovalData; ownerId: string }>> {
    const found: Array<{ approval: ApprovalData; ownerId: string }> = [];
    let cursor: string | null = null;
    do {
      const page: { records: StoredRecord<IndexEntry>[]; nextCursor: string | null } = await this.#storage.records.list<IndexEntry>(
        INDEX_COLLECTION,
        OPEN_PARTITION,
        { states: ['Pending'], limit: 200, cursor },
      );
      for (const entry of page.records) {
        const approval = await this.get({ ownerId: entry.data.ownerId }, entry.data.approvalId);
        if (approval !== undefined) found.push({ approval, ownerId: entry.data.ownerId });
      }
      cursor = page.nextCursor;
    } while (cursor !== null && found.length < max);
    return found;
  }

  /** Moves a still-Pending approval to `next` (its decided state), with the outbox; false when it was no longer Pending. */
  async settle(ownerId: string, next: ApprovalData, outbox: readonly OutboxEntry[] = []): Promise<boolean> {
    const updated = await this.#storage.records.update<ApprovalData>(approvalKey(ownerId, next.approvalId), { state: next.state, data: next }, { states: ['Pending'] }, outbox);
    if (updated === undefined) return false;
    await this.#mirror(next, { state: next.state });
    return true;
  }

  /** Routes a still-Pending approval to more roles, once (escalation); false when it was decided or escalated meanwhile. */
  async escalate(ownerId: string, approval: ApprovalData, roles: readonly string[]): Promise<ApprovalData | undefined> {
    const stored = await this.#storage.records.get<ApprovalData>(approvalKey(ownerId, approval.approvalId));
    if (stored === undefined || stored.state !== 'Pending' || stored.data.escalated === true) return undefined;
    const routedTo = [...new Set([...(stored.data.routedTo ?? []), ...roles])];
    const next: ApprovalData = { ...fromStored(stored.data), escalated: true, routedTo };
    const updated = await this.#storage.records.update<ApprovalData>(approvalKey(ownerId, approval.approvalId), { data: next }, { version: stored.version, states: ['Pending'] });
    if (updated === undefined) return undefined;
    const added = roles.filter((role) => !(stored.data.routedTo ?? []).includes(role));
    await this.#index(next, ownerId, added.map(rolePartition));
    return next;
  }

  /** After a run became final: its approvals (and their routes) expire with it. */
  async expireRun(owner: Owner, jobId: string, expiresAt: number): Promise<void> {
    for (const approval of await this.forRun(owner, jobId)) {
      await this.#storage.records.update(approvalKey(owner.ownerId, approval.approvalId), { expiresAt });
      await this.#mirror(approval, { expiresAt });
    }
  }

  async sweep(): Promise<void> {
    await this.#storage.records.sweep(APPROVAL_COLLECTION);
    await this.#storage.records.sweep(INDEX_COLLECTION);
  }

  async #index(approval: ApprovalData, ownerId: string, partitions: readonly string[]): Promise<void> {
    for (const partition of partitions.filter(isStorableKey)) {
      await this.#storage.records.insert<IndexEntry>({
        collection: INDEX_COLLECTION,
        ownerId: partition,
        id: approval.approvalId,
        state: approval.state,
        createdAt: approval.createdAt,
        data: { ownerId, approvalId: approval.approvalId },
      });
    }
  }

  async #mirror(approval: ApprovalData, patch: { readonly state?: string; readonly expiresAt?: number }): Promise<void> {
    for (const partition of [OPEN_PARTITION, ...(approval.routedTo ?? []).map(rolePartition)].filter(isStorableKey)) {
      await this.#storage.records.update({ collection: INDEX_COLLECTION, ownerId: partition, id: approval.approvalId }, patch);
    }
  }
}
