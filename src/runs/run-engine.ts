// The one run engine every family shares: admission (the run record with its lease, under the owner's
// caps, in one atomic insert), one dispatch lane per kind, the registry of runs executing in this
// process (their abort controllers: live handles never go into a record), cancellation from any
// instance, the heartbeat that renews this instance's leases and slots, and the takeover of runs whose
// lease lapsed because the instance executing them died. Records, items and numbered events live in
// the storage port; this class holds only what cannot be stored.
import type { Clock } from '../platform/clock/index.js';
import type { InsertResult, InsertRules, NewRecord, RecordKey, Storage, StoredRecord } from '../platform/storage/index.js';
import type { LiveRun, RunKind, RunObserver } from './run-kind.js';
import { RunLane, type LaneSlot } from './run-lane.js';
import { cancelledByCaller, hostStopping, leaseLost, type RunStopped } from './stop-reasons.js';

export interface RunEngineOptions {
  readonly storage: Storage;
  readonly clock: Clock;
  /** This process's id: the holder of its leases and slots. */
  readonly instanceId: string;
  readonly leaseTtlMs: number;
  /** How often lapsed leases are looked for; default a third of the lease TTL, at most 5 s. */
  readonly scanIntervalMs?: number;
  readonly log: { warn(details: object, message: string): void; error(details: object, message: string): void; info(details: object, message: string): void };
  /** Wraps each execution (run metrics and spans); none by default. */
  readonly observe?: RunObserver;
}

interface Executing {
  readonly kind: RunKind;
  readonly key: RecordKey;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

const MESSAGE_CANCEL = 'cancel';

export function runTopic(key: RecordKey): string {
  return `run:${key.collection}/${key.id}`;
}

function keyString(key: RecordKey): string {
  return `${key.collection}\u0000${key.ownerId}\u0000${key.id}`;
}

export class RunEngine {
  readonly #o: RunEngineOptions;
  readonly #kinds = new Map<string, { kind: RunKind; lane: RunLane }>();
  readonly #executing = new Map<string, Executing>();
  readonly #claiming = new Set<string>();
  #timers: NodeJS.Timeout[] = [];
  #stopping = false;
  #stopped: Promise<void> | undefined;
  #scanning = false;

  constructor(options: RunEngineOptions) {
    this.#o = options;
  }

  get instanceId(): string {
    return this.#o.instanceId;
  }

  get leaseTtlMs(): number {
    return this.#o.leaseTtlMs;
  }

  register(kind: RunKind): void {
    if (this.#kinds.has(kind.collection)) throw new Error(`run kind ${kind.collection} registered twice`);
    this.#kinds.set(kind.collection, { kind, lane: new RunLane(kind.lane) });
  }

  /** Starts the heartbeat and the takeover scan. */
  start(): void {
    const ttl = this.#o.leaseTtlMs;
    const every = (ms: number, work: () => Promise<void>): void => {
      const timer = setInterval(() => void work().catch((err: unknown) => this.#o.log.warn({ err }, 'run engine background work failed')), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(Math.max(50, Math.floor(ttl / 3)), () => this.heartbeat());
    every(this.#o.scanIntervalMs ?? Math.max(50, Math.min(5_000, Math.floor(ttl / 3))), () => this.scan());
  }

  /** A lease for a record this instance is about to execute. */
  lease(): { readonly holder: string; readonly expiresAt: number } {
    return { holder: this.#o.instanceId, expiresAt: this.#o.clock.now() + this.#o.leaseTtlMs };
  }

  /** Stores a new run record under the owner's caps; with `leased` it is this instance's from the start. */
  admit<T>(record: NewRecord<T>, rules: InsertRules, options: { readonly leased: boolean }): Promise<InsertResult<T>> {
    return this.#o.storage.records.insert({ ...record, lease: options.leased ? this.lease() : (record.lease ?? null) }, rules);
  }

  /** Queues a leased run on its kind's lane. */
  dispatch(key: RecordKey): void {
    const entry = this.#entry(key.collection);
    entry.lane.enqueue({ id: keyString(key), ownerId: key.ownerId, start: (slot) => this.#execute(entry.kind, key, slot) });
  }

  /** Takes a queued run off its lane before it started; false when it already started. */
  withdraw(key: RecordKey): boolean {
    return this.#entry(key.collection).lane.withdraw(keyString(key));
  }

  /**
   * Claims a run waiting for a stream (its lease held by `from`, not lapsed) and executes it here, now,
   * outside the lane. Resolves false when another connection or instance claimed it first.
   */
  async claimInline(key: RecordKey, from: string, states: readonly string[]): Promise<boolean> {
    const id = keyString(key);
    if (this.#claiming.has(id) || this.#executing.has(id)) return false;
    this.#claiming.add(id);
    try {
      const claimed = await this.#o.storage.records.update(key, { lease: this.lease() }, { leaseHolder: from, states });
      if (claimed === undefined) return false;
      this.#execute(this.#entry(key.collection).kind, key, null);
      return true;
    } finally {
      this.#claiming.delete(id);
    }
  }

  /** Cancels the run wherever it executes; true when it executes here. */
  async cancel(key: RecordKey, message?: string): Promise<boolean> {
    const local = this.#executing.get(keyString(key));
    if (local !== undefined) {
      local.controller.abort(cancelledByCaller(message));
      return true;
    }
    await this.#o.storage.signals.publish(runTopic(key), MESSAGE_CANCEL);
    return false;
  }

  /** Sends a message to the run wherever it executes (e.g. "an approval was decided"). */
  notify(key: RecordKey, message: string): Promise<void> {
    return this.#o.storage.signals.publish(runTopic(key), message);
  }

  isExecutingHere(key: RecordKey): boolean {
    return this.#executing.has(keyString(key));
  }

  /** Queued and executing runs of a kind on this instance (for metrics and tests). */
  load(collection: string): { readonly queued: number; readonly executing: number } {
    const { lane } = this.#entry(collection);
    return { queued: lane.queued, executing: lane.executing };
  }

  /**
   * Renews this instance's leases and slots. A run whose lease another instance took is stopped here; a
   * lease this instance holds on a run that is no longer alive here (its execution ended without
   * settling it, e.g. while the storage was unreachable) is let go, so a scan takes the run over.
   */
  async heartbeat(): Promise<void> {
    const { storage } = this.#o;
    const renewedKeys = await storage.records.renewLeases(this.#o.instanceId, this.#o.leaseTtlMs);
    const renewed = new Set(renewedKeys.map(keyString));
    await storage.slots.renew(this.#o.instanceId, this.#o.leaseTtlMs);
    for (const key of renewedKeys) {
      if (this.#aliveHere(key) || !this.#kinds.has(key.collection)) continue;
      this.#o.log.warn({ collection: key.collection, jobId: key.id }, 'letting go of a run no longer executing here');
      await storage.records.update(key, { lease: { holder: this.#o.instanceId, expiresAt: this.#o.clock.now() } }, { leaseHolder: this.#o.instanceId });
    }
    for (const [id, run] of this.#executing) {
      if (renewed.has(id) || run.controller.signal.aborted) continue;
      const record = await storage.records.get(run.key);
      if (record !== undefined && record.leaseHolder !== this.#o.instanceId && record.state !== null && run.kind.liveStates.includes(record.state)) {
        this.#o.log.warn({ collection: run.key.collection, jobId: run.key.id }, 'another instance took this run over; stopping it here');
        run.controller.abort(leaseLost());
      }
    }
  }

  /** Takes over live runs whose lease lapsed (their instance died, or a stream reservation ran out). */
  async scan(): Promise<void> {
    if (this.#scanning || this.#stopping) return;
    this.#scanning = true;
    try {
      const collections = [...this.#kinds.keys()];
      const states = [...new Set([...this.#kinds.values()].flatMap(({ kind }) => kind.liveStates))];
      const lapsed = await this.#o.storage.records.lapsed(collections, states, 50);
      for (const record of lapsed) {
        if (this.#stopping) return;
        await this.#takeOver(record);
      }
    } finally {
      this.#scanning = false;
    }
  }

  /**
   * Stops everything this instance executes: nothing new starts, every live run is aborted as the host
   * stopping, and (durable storage) its leases and slots are released so another instance takes over at
   * once. Runs queued here that never started are handed to their kind's `abandon`. Resolves once the
   * live ones settled (or `graceMs` passed); idempotent (every caller waits for the same stop).
   */
  stop(graceMs: number): Promise<void> {
    this.#stopped ??= this.#stop(graceMs);
    return this.#stopped;
  }

  async #stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    const live = [...this.#executing.values()];
    for (const run of live) run.controller.abort(hostStopping());
    for (const { kind, lane } of this.#kinds.values()) {
      for (const job of lane.close()) {
        const [collection, ownerId, id] = job.id.split('\u0000') as [string, string, string];
        await kind.abandon({ collection, ownerId, id }).catch((err: unknown) => this.#o.log.warn({ err, jobId: id }, 'settling an unstarted run at shutdown failed'));
      }
    }
    await withinGrace(Promise.allSettled(live.map((run) => run.done)), graceMs);
    if (this.#o.storage.durable) {
      await this.#o.storage.records.releaseLeases(this.#o.instanceId).catch(() => 0);
      await this.#o.storage.slots.releaseAll(this.#o.instanceId).catch(() => undefined);
    }
  }

  /** Resolves once every run executing here has ended. */
  async idle(): Promise<void> {
    while (this.#executing.size > 0) await Promise.allSettled([...this.#executing.values()].map((run) => run.done));
  }

  async #takeOver(record: StoredRecord): Promise<void> {
    const key: RecordKey = { collection: record.collection, ownerId: record.ownerId, id: record.id };
    const entry = this.#kinds.get(record.collection);
    // A run alive here (a clock that jumped past its lease, or still queued in a lane) is ours to keep.
    if (entry === undefined || this.#aliveHere(key)) return;
    const claimed = await this.#o.storage.records.claim(key, this.#o.instanceId, this.#o.leaseTtlMs, { states: entry.kind.liveStates, lapsedOnly: true });
    if (claimed === undefined) return;
    this.#o.log.info({ collection: key.collection, jobId: key.id, from: record.leaseHolder }, 'taking over a run whose lease lapsed');
    const next = await entry.kind.takeOver(claimed);
    if (next === 'execute') this.dispatch(key);
  }

  #execute(kind: RunKind, key: RecordKey, slot: LaneSlot | null): void {
    const controller = new AbortController();
    const handlers = new Set<(message: string) => void>();
    const unsubscribe = this.#o.storage.signals.subscribe(runTopic(key), (message) => {
      if (message === MESSAGE_CANCEL) controller.abort(cancelledByCaller());
      else for (const handler of handlers) handler(message);
    });
    const live: LiveRun = {
      key,
      signal: controller.signal,
      holder: this.#o.instanceId,
      slot,
      onMessage: (handler) => void handlers.add(handler),
    };
    const id = keyString(key);
    // Execution begins on a later event-loop turn: the request that created the run answers first,
    // and a run stays Queued (cancellable outright) until then.
    const observe = this.#o.observe;
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (observe === undefined ? kind.execute(live) : observe(key, () => kind.execute(live))))
      .catch((err: unknown) => this.#o.log.error({ err, collection: key.collection, jobId: key.id }, 'a run executor threw'))
      .finally(() => {
        unsubscribe();
        if (this.#executing.get(id)?.done === done) this.#executing.delete(id);
        slot?.release();
      });
    this.#executing.set(id, { kind, key, controller, done });
  }

  #aliveHere(key: RecordKey): boolean {
    const id = keyString(key);
    return this.#executing.has(id) || this.#claiming.has(id) || (this.#kinds.get(key.collection)?.lane.has(id) ?? false);
  }

  #entry(collection: string): { kind: RunKind; lane: RunLane } {
    const entry = this.#kinds.get(collection);
    if (entry === undefined) throw new Error(`no run kind ${collection} is registered`);
    return entry;
  }
}

async function withinGrace(work: Promise<unknown>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
}

export type { RunStopped };
