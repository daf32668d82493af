// The one run engine every family shares, and the owner of every run's lifecycle (decision 1101):
// admission (the run record with its lease, under the owner's caps, in one atomic insert — already
// begun when this instance can execute it at once, decision 2806), one dispatch lane per kind, the
// Queued → Running compare-and-set when a queued run begins here, the fence
// (a run whose lease another instance took, or that a stopping host leaves to others, writes nothing
// more), cancellation from any instance, waiting for a person (a run whose execution returns
// RunWaits is parked: its slot given back, its lease released, its state stored; a decision on any
// instance wakes it through `decided`, decision 3701), the heartbeat that renews this instance's
// leases and slots, the takeover of runs whose instance died, a graceful stop, and which end a
// stopped run gets. A family says only how its runs begin, execute, wait and are written when they
// end (run-kind.ts).
import { OutageLog } from '../platform/log/index.js';
import { isStorageUnavailable, type InsertResult, type RecordKey, type Storage, type StoredRecord, type UpdateGuard } from '../platform/storage/index.js';
import { LiveRunHandle } from './live-run.js';
import { decodeRunMessage, encodeRunMessage, type RunMessage } from './run-message.js';
import { INTERRUPTED, RunWaits, type RunDecision, type RunEnding, type RunKind, type RunObserver, type SettlingRun, type StopRequest } from './run-kind.js';
import { RunLane, type LaneSlot } from './run-lane.js';
import { cancelledBy, hostStopping, leaseLost, RunStopped, type CancelCause } from './stop-reasons.js';
import { withinGrace } from '../platform/promise/index.js';

export interface RunEngineOptions {
  readonly storage: Storage;
  /** This process's id: the holder of its leases and slots. */
  readonly instanceId: string;
  readonly leaseTtlMs: number;
  /** How often lapsed leases are looked for; default a third of the lease TTL, at most 5 s. */
  readonly scanIntervalMs?: number;
  readonly log: { warn(details: object, message: string): void; error(details: object, message: string): void; info(details: object, message: string): void };
  /** Wraps each execution (run metrics and spans); none by default. */
  readonly observe?: RunObserver;
}

/** A lease as stored with a record: its holder and when it lapses. */
export interface RunLease {
  readonly holder: string;
  readonly expiresAt: number;
}

/** How a run dispatched here starts: from the record admission stored, maybe already begun, and what it heard meanwhile. */
interface Admitted {
  readonly record: StoredRecord;
  /** Stored begun (its kind's begin applied at admission): nothing more is written to begin it. */
  readonly begun: boolean;
  readonly heard?: readonly string[];
}

interface Executing {
  readonly kind: RunKind;
  readonly run: LiveRunHandle;
  done: Promise<void>;
}

/** The state every family's unstarted runs are in. */
export const QUEUED = 'Queued';
/** After the drain, how long aborted runs get to unwind before their leases are let go. */
const UNWIND_MS = 1_000;
const HEARTBEAT_RETRY_MS = 250;

/** What an execution that ended parked reports to the observer (metrics' `outcome`), whatever its kind's waiting state. */
export const PARKED_EXECUTION = 'Parked';

/** How soon a parked run's deadline timer that fired early looks again. */
const DEADLINE_RETRY_MS = 10;

/** Parked out of memory: in its kind's waiting state with no lease (holding one, it executes, or was woken). */
function isParked(kind: RunKind, record: StoredRecord): boolean {
  return kind.waiting !== undefined && record.state === kind.waiting.state && record.leaseHolder === null;
}

/** The lease holder of a run an instance let go of while alive: nobody's, lapsed, for any scan to claim. */
function releasedBy(instanceId: string): string {
  return `released:${instanceId}`;
}

export function runTopic(key: RecordKey): string {
  return `run:${key.collection}/${key.id}`;
}

function keyString(key: RecordKey): string {
  return `${key.collection}\u0000${key.ownerId}\u0000${key.id}`;
}

/** What stopped a run, as a family's ending says it (lease-lost never reaches a family). */
function stopRequestOf(signal: AbortSignal): StopRequest | null {
  if (!signal.aborted) return null;
  const reason: unknown = signal.reason;
  if (!(reason instanceof RunStopped)) return { cause: 'cancelled' };
  if (reason.stop === 'lease-lost') return null;
  return { cause: reason.stop };
}

export class RunEngine {
  readonly #options: RunEngineOptions;
  readonly #kinds = new Map<string, { kind: RunKind; lane: RunLane }>();
  readonly #executing = new Map<string, Executing>();
  readonly #claiming = new Set<string>();
  /** Runs admitted leased to this instance and not dispatched yet (key → when), alive here meanwhile. */
  readonly #admitting = new Map<string, number>();
  readonly #heartbeatOutage: OutageLog;
  readonly #scanOutage: OutageLog;
  readonly #commitOutage: OutageLog;
  #timers: NodeJS.Timeout[] = [];
  /** Parked runs' approval deadlines this instance makes happen on time (key → timer). */
  readonly #deadlines = new Map<string, NodeJS.Timeout>();
  #heartbeatRetry: NodeJS.Timeout | undefined;
  #stopping = false;
  #stopped: Promise<void> | undefined;
  #scanning = false;

  constructor(options: RunEngineOptions) {
    this.#options = options;
    this.#heartbeatOutage = new OutageLog(options.log, 'the run heartbeat (renewing leases)');
    this.#scanOutage = new OutageLog(options.log, 'the run takeover scan');
    this.#commitOutage = new OutageLog(options.log, 'recording run checkpoints');
  }

  get instanceId(): string {
    return this.#options.instanceId;
  }

  get leaseTtlMs(): number {
    return this.#options.leaseTtlMs;
  }

  register<D, R, W = unknown>(kind: RunKind<D, R, W>): void {
    if (this.#kinds.has(kind.collection)) throw new Error(`run kind ${kind.collection} registered twice`);
    // Stored as the engine reads every kind: records and outcomes pass through it untouched.
    this.#kinds.set(kind.collection, { kind, lane: new RunLane(kind.lane) });
  }

  /** Starts the heartbeat and the takeover scan. */
  start(): void {
    const ttl = this.#options.leaseTtlMs;
    const every = (ms: number, work: () => Promise<void>): void => {
      const timer = setInterval(() => void work(), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(Math.max(50, Math.floor(ttl / 3)), () => this.heartbeat());
    every(this.#options.scanIntervalMs ?? Math.max(50, Math.min(5_000, Math.floor(ttl / 3))), () => this.scan());
  }

  /**
   * A lease for a record this instance is about to execute. With the key of a run about to be
   * admitted, that run counts as alive here until it is dispatched (or for a lease's time, if it
   * never is): a heartbeat between its insert and its dispatch must not let go of it.
   */
  lease(admitting?: RecordKey): RunLease {
    const now = this.#options.storage.clock.now();
    if (admitting !== undefined) this.#admitting.set(keyString(admitting), now);
    return { holder: this.#options.instanceId, expiresAt: now + this.#options.leaseTtlMs };
  }

  /**
   * Admits a new run and dispatches it here: what a family calls to start one (decision 2806).
   * `queued` is the run as it waits; `insert` stores the record it is given under the family's rules
   * (owner caps, one live run per scope, a plan beside it). When the kind's lane has a slot for the
   * owner now, the run is stored already begun — its kind's begin applied, under this instance's
   * lease — and executes at once, so no Queued → Running write follows; a cancel meanwhile is heard
   * from before the insert. Otherwise it is stored Queued under this instance's lease and waits on
   * the lane (its begin is then the usual compare-and-set). With `beginAtAdmission: false` it is
   * always stored Queued (a bundle run, whose poll says Queued until it begins). With `reserved`, it is
   * stored Queued under that lease (a stream reservation) and not dispatched: the stream that opens
   * it claims it (`claimInline`), or it lapses and a scan ends it. `insert` may throw after its insert
   * (a refusal found then, once it has undone it): nothing is dispatched.
   */
  async startRun<D>(
    key: RecordKey,
    queued: { readonly state: string; readonly createdAt: number; readonly data: D },
    insert: (first: { readonly state: string; readonly data: D; readonly lease: RunLease }) => Promise<InsertResult<D>>,
    options: { readonly beginAtAdmission?: boolean; readonly reserved?: RunLease } = {},
  ): Promise<InsertResult<D>> {
    if (options.reserved !== undefined) return insert({ state: queued.state, data: queued.data, lease: options.reserved });
    const { storage, instanceId } = this.#options;
    const entry = this.#entry(key.collection);
    const id = keyString(key);
    const now = storage.clock.now();
    const lease = this.lease(key);
    const slot = this.#stopping || options.beginAtAdmission === false ? null : entry.lane.reserve(key.ownerId);
    const waiting: StoredRecord<D> = {
      ...key, scope: null, state: queued.state, createdAt: queued.createdAt, expiresAt: null, version: 0,
      leaseHolder: instanceId, leaseExpiresAt: lease.expiresAt, data: queued.data,
    };
    const begun = slot === null ? null : (entry.kind as RunKind<D>).begin(waiting, now);
    // Begun at admission: the slot and what the run hears from before its insert (a cancel).
    const start = begun === null || slot === null ? null : { slot, heard: [] as string[] };
    if (start === null) slot?.release();
    const unsubscribe = start === null ? undefined : storage.signals.subscribe(runTopic(key), (text) => start.heard.push(text));
    let admitted: InsertResult<D> | undefined;
    try {
      admitted = await insert(begun === null ? { state: queued.state, data: queued.data, lease } : { state: begun.state, data: begun.data, lease });
    } finally {
      unsubscribe?.();
      if (admitted?.outcome !== 'inserted') {
        this.#admitting.delete(id);
        start?.slot.release();
      }
    }
    if (admitted.outcome !== 'inserted') return admitted;
    if (start === null) {
      this.dispatch(key, admitted.record);
      return admitted;
    }
    this.#admitting.delete(id);
    this.#execute(entry.kind, key, start.slot, { record: admitted.record, begun: true, heard: start.heard });
    return admitted;
  }

  /**
   * Queues a leased run on its kind's lane. `admitted`, the record as this instance just stored it,
   * spares the read when the run begins (its begin is a compare-and-set on that record's version, so
   * a record that changed meanwhile — a cancel — refuses the begin and nothing runs).
   */
  dispatch(key: RecordKey, admitted?: StoredRecord): void {
    const entry = this.#entry(key.collection);
    this.#admitting.delete(keyString(key));
    const start = admitted === undefined ? undefined : { record: admitted, begun: false };
    entry.lane.enqueue({ id: keyString(key), ownerId: key.ownerId, start: (slot) => this.#execute(entry.kind, key, slot, start) });
  }

  /**
   * Claims a run waiting for a stream (its lease held by `from`, not lapsed) and executes it here, now,
   * outside the lane. Resolves false when another connection or instance claimed it first.
   */
  async claimInline(key: RecordKey, from: string): Promise<boolean> {
    const id = keyString(key);
    if (this.#claiming.has(id) || this.#executing.has(id)) return false;
    this.#claiming.add(id);
    try {
      const claimed = await this.#options.storage.records.update(key, { lease: this.lease() }, { leaseHolder: from, states: [QUEUED] });
      if (claimed === undefined) return false;
      this.#execute(this.#entry(key.collection).kind, key, null);
      return true;
    } finally {
      this.#claiming.delete(id);
    }
  }

  /**
   * Cancels a run: one that has not started anywhere ends at once (its family settles it as cancelled);
   * one executing is told to stop, wherever it executes. With `onlyIfQueued`, an executing run is left
   * to finish. 'ended' when this call ended it, 'signalled' when it was told to stop, 'running' when
   * left to finish, 'gone' when it is no longer live.
   */
  async cancel(key: RecordKey, options: { readonly cause?: CancelCause; readonly onlyIfQueued?: boolean } = {}): Promise<'ended' | 'signalled' | 'running' | 'gone'> {
    const { kind } = this.#entry(key.collection);
    const record = await this.#options.storage.records.get(key);
    if (record === undefined || record.state === null || !kind.liveStates.includes(record.state)) return 'gone';
    const cause = options.cause ?? 'cancelled';
    const stopped: StopRequest = { cause };
    // Still Queued, even if dispatched here (or parked, executing nowhere): ending it is a compare-and-set
    // against the begin's (or the resume's), so exactly one wins.
    const idle = record.state === QUEUED || isParked(kind, record);
    if (idle && (await this.endQueued(record, { type: 'stopped', stopped }))) return 'ended';
    if (options.onlyIfQueued === true) return 'running';
    const local = this.#executing.get(keyString(key));
    if (local !== undefined) local.run.stop(cancelledBy(cause), false);
    else await this.notify(key, { type: 'cancel', cause });
    return 'signalled';
  }

  /**
   * Ends a run that is not executing (still Queued, or parked waiting for a person; with
   * `leaseHolder`, still held by it): its family writes `ending`. False when it started or ended
   * meanwhile. Takes it off this instance's lane.
   */
  async endQueued(record: StoredRecord, ending: RunEnding<never>, options: { readonly leaseHolder?: string } = {}): Promise<boolean> {
    const entry = this.#entry(record.collection);
    // A parked run is ended only as read: parked (a woken one keeps the waiting state for a workflow run).
    const parked = isParked(entry.kind, record);
    const guard: UpdateGuard = {
      states: [parked ? record.state! : QUEUED],
      ...(parked ? { version: record.version } : {}),
      ...(options.leaseHolder === undefined ? {} : { leaseHolder: options.leaseHolder }),
    };
    const final = await this.#settle(entry.kind, record, ending, guard);
    if (final === null) return false;
    entry.lane.withdraw(keyString(record));
    return true;
  }

  /** Sends a message to the run wherever it executes (a cancel). */
  notify(key: RecordKey, message: RunMessage): Promise<void> {
    return this.#options.storage.signals.publish(runTopic(key), encodeRunMessage(message));
  }

  /**
   * A person decided an approval the run waits on (or it expired), heard on any instance, through any
   * route: the one way a waiting run is woken. A run parked out of memory (its kind has `waiting`) is
   * resumed here — parked → Queued under this instance's lease with what its kind resumes it with,
   * compare-and-set, so exactly one of the instances that hear a decision resumes it — and dispatched
   * on this instance's lane. A run of a kind that cannot park is told wherever it executes. A
   * decision that reaches a run not parked yet (still executing its last steps) is found by the park.
   */
  async decided(key: RecordKey, decision: RunDecision): Promise<void> {
    const { kind } = this.#entry(key.collection);
    if (kind.waiting === undefined) return this.notify(key, { type: 'approval-decided', approvalId: decision.approvalId });
    const record = await this.#options.storage.records.get(key);
    if (record !== undefined) await this.#wake(kind, record, decision);
  }

  /** Resumes a parked run with `decision` when it waits on it; false when it is not (or no longer) parked on it. */
  async #wake(kind: RunKind, record: StoredRecord, decision: RunDecision): Promise<boolean> {
    const waiting = kind.waiting;
    if (waiting === undefined || !isParked(kind, record)) return false;
    const data = waiting.resume(record, decision);
    if (data === null) return false;
    const key: RecordKey = { collection: record.collection, ownerId: record.ownerId, id: record.id };
    const resumed = await this.#options.storage.records.update(key, { state: waiting.wokenState, lease: this.lease(), data }, { states: [waiting.state], version: record.version });
    if (resumed === undefined) return false;
    this.#disarmDeadline(key);
    this.dispatch(key, resumed);
    return true;
  }

  /**
   * Makes the approval a parked run waits on expire at its deadline, on this instance (a timer, not
   * a lease: if this instance goes, the approvals sweep of any instance expires it).
   */
  #armDeadline(kind: RunKind, key: RecordKey, waits: RunWaits): void {
    const { deadline, approvalId } = waits;
    const waiting = kind.waiting;
    if (deadline === null || waiting === undefined || this.#stopping) return;
    const id = keyString(key);
    const arm = (delayMs: number): void => {
      clearTimeout(this.#deadlines.get(id));
      const timer = setTimeout(() => {
        this.#deadlines.delete(id);
        waiting.expire(key, approvalId).then(
          // A timer may fire a little before this clock says the deadline passed.
          (outcome) => {
            if (outcome === 'not-due') arm(DEADLINE_RETRY_MS);
          },
          (err: unknown) => this.#options.log.warn({ err, collection: key.collection, jobId: key.id, approvalId }, 'expiring a parked run\'s approval failed; the approvals sweep will'),
        );
      }, delayMs);
      timer.unref();
      this.#deadlines.set(id, timer);
    };
    arm(Math.max(0, deadline - this.#options.storage.clock.now()));
  }

  #disarmDeadline(key: RecordKey): void {
    const id = keyString(key);
    clearTimeout(this.#deadlines.get(id));
    this.#deadlines.delete(id);
  }

  isExecutingHere(key: RecordKey): boolean {
    return this.#executing.has(keyString(key));
  }

  /** Queued and executing runs of a kind on this instance (for metrics and tests). */
  load(collection: string): { readonly queued: number; readonly executing: number } {
    const entry = this.#kinds.get(collection);
    return entry === undefined ? { queued: 0, executing: 0 } : { queued: entry.lane.queued, executing: entry.lane.executing };
  }

  /**
   * Renews this instance's leases and slots. A run whose lease another instance took is stopped and
   * fenced here; a lease this instance holds on a run that is no longer alive here (its execution
   * ended without settling it, e.g. while the storage was unreachable) is let go, so a scan takes the
   * run over. While the storage is away it retries every HEARTBEAT_RETRY_MS, so leases are renewed as
   * soon as it is back; it never rejects.
   */
  async heartbeat(): Promise<void> {
    clearTimeout(this.#heartbeatRetry);
    const { storage, instanceId, leaseTtlMs } = this.#options;
    for (const [id, admittedAt] of this.#admitting) if (storage.clock.now() - admittedAt >= leaseTtlMs) this.#admitting.delete(id);
    try {
      const renewedKeys = await storage.records.renewLeases(instanceId, leaseTtlMs);
      const renewed = new Set(renewedKeys.map(keyString));
      await storage.slots.renew(instanceId, leaseTtlMs);
      for (const key of renewedKeys) {
        if (this.#aliveHere(key) || !this.#kinds.has(key.collection)) continue;
        this.#options.log.warn({ collection: key.collection, jobId: key.id }, 'letting go of a run no longer executing here');
        // Under a holder this instance's renewals do not match, lapsed now: the next scan of any
        // instance (this one included) takes it over. Kept under this instance's own id, the next
        // heartbeat would renew it again before a scan saw it lapse.
        await storage.records.update(key, { lease: { holder: releasedBy(instanceId), expiresAt: storage.clock.now() } }, { leaseHolder: instanceId });
      }
      for (const [id, executing] of this.#executing) {
        const { run, kind } = executing;
        if (renewed.has(id) || run.signal.aborted) continue;
        const record = await storage.records.get(run.key);
        if (record !== undefined && record.leaseHolder !== instanceId && record.state !== null && kind.liveStates.includes(record.state)) {
          this.#options.log.warn({ collection: run.key.collection, jobId: run.key.id }, 'another instance took this run over; stopping it here');
          run.stop(leaseLost(), true);
        }
      }
      this.#heartbeatOutage.succeeded();
    } catch (error) {
      this.#heartbeatOutage.failed(error);
      if (!this.#stopping) {
        this.#heartbeatRetry = setTimeout(() => void this.heartbeat(), HEARTBEAT_RETRY_MS);
        this.#heartbeatRetry.unref();
      }
    }
  }

  /** Takes over live runs whose lease lapsed (their instance died, or a stream reservation ran out); never rejects. */
  async scan(): Promise<void> {
    if (this.#scanning || this.#stopping) return;
    this.#scanning = true;
    try {
      const collections = [...this.#kinds.keys()];
      const states = [...new Set([...this.#kinds.values()].flatMap(({ kind }) => kind.liveStates))];
      const lapsed = await this.#options.storage.records.lapsed(collections, states, 50);
      for (const record of lapsed) {
        if (this.#stopping) return;
        await this.#takeOver(record);
      }
      this.#scanOutage.succeeded();
    } catch (error) {
      this.#scanOutage.failed(error);
    } finally {
      this.#scanning = false;
    }
  }

  /**
   * Stops everything this instance executes; idempotent (every caller waits for the same stop). On a
   * storage other instances share (decision 1101): nothing new starts; runs driven by a stream stop
   * at once; every other run drains for up to `graceMs` (it finishes what is in flight and hands
   * over at a checkpoint, a bundle run finishes its conversation); whatever is still running then is
   * stopped; nothing of a stopped run is written here; leases and slots are let go so another
   * instance takes over at once. On a storage nobody else shares, every run stops at once and is
   * settled as stopped by the host, and runs that never started end too.
   */
  stop(graceMs: number): Promise<void> {
    this.#stopped ??= this.#stop(graceMs);
    return this.#stopped;
  }

  async #stop(graceMs: number): Promise<void> {
    const { storage, log } = this.#options;
    this.#stopping = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    for (const timer of this.#deadlines.values()) clearTimeout(timer);
    this.#deadlines.clear();
    clearTimeout(this.#heartbeatRetry);
    const unstarted = [...this.#kinds.values()].flatMap(({ lane }) => lane.close());
    const live = [...this.#executing.values()];
    const settled = (): Promise<unknown> => Promise.allSettled([...this.#executing.values()].map((e) => e.done));
    if (storage.durable) {
      for (const { run } of live) {
        if (run.slot === null) run.stop(hostStopping(), true);
        else run.beginDraining();
      }
      await withinGrace(settled(), graceMs);
      for (const { run } of this.#executing.values()) run.stop(hostStopping(), true);
      await withinGrace(settled(), UNWIND_MS);
      await storage.records.releaseLeases(this.#options.instanceId).catch((err: unknown) => log.warn({ err }, 'letting go of leases at shutdown failed'));
      await storage.slots.releaseAll(this.#options.instanceId).catch((err: unknown) => log.warn({ err }, 'letting go of slots at shutdown failed'));
      return;
    }
    for (const { run } of live) run.stop(hostStopping(), false);
    for (const job of unstarted) {
      const [collection, ownerId, id] = job.id.split('\u0000') as [string, string, string];
      const record = await storage.records.get({ collection, ownerId, id }).catch(() => undefined);
      if (record?.state !== QUEUED) continue;
      await this.endQueued(record, { type: 'stopped', stopped: { cause: 'host-stopping' } }).catch((err: unknown) =>
        log.warn({ err, jobId: id }, 'settling an unstarted run at shutdown failed'),
      );
    }
    await withinGrace(settled(), graceMs);
  }

  /** Resolves once every run executing here has ended. */
  async idle(): Promise<void> {
    while (this.#executing.size > 0) await Promise.allSettled([...this.#executing.values()].map((e) => e.done));
  }

  async #takeOver(record: StoredRecord): Promise<void> {
    const key: RecordKey = { collection: record.collection, ownerId: record.ownerId, id: record.id };
    const entry = this.#kinds.get(record.collection);
    // A run alive here (a clock that jumped past its lease, or still queued in a lane) is ours to keep.
    if (entry === undefined || this.#aliveHere(key)) return;
    const { storage, instanceId, leaseTtlMs } = this.#options;
    const claimed = await storage.records.claim(key, instanceId, leaseTtlMs, { states: entry.kind.liveStates, lapsedOnly: true });
    if (claimed === undefined) return;
    this.#options.log.info({ collection: key.collection, jobId: key.id, from: record.leaseHolder }, 'taking over a run whose lease lapsed');
    if (entry.kind.resumes(claimed)) this.dispatch(key);
    else await this.#settle(entry.kind, claimed, { type: 'abandoned' }, { states: entry.kind.liveStates, leaseHolder: instanceId });
  }

  #execute(kind: RunKind, key: RecordKey, slot: LaneSlot | null, admitted?: Admitted): void {
    const id = keyString(key);
    const run = new LiveRunHandle({
      storage: this.#options.storage,
      key,
      holder: this.#options.instanceId,
      slot,
      outage: this.#commitOutage,
      onEmitError: (err) => this.#options.log.error({ err, collection: key.collection, jobId: key.id }, 'recording a run event failed'),
      ...(kind.mergeEvents === undefined ? {} : { mergeEvents: (previous: unknown, next: unknown) => kind.mergeEvents?.(previous, next) }),
    });
    const hear = (text: string): void => {
      const message = decodeRunMessage(text);
      if (message?.type === 'cancel') run.stop(cancelledBy(message.cause), false);
      else if (message !== undefined) run.hear(message);
    };
    const unsubscribe = this.#options.storage.signals.subscribe(runTopic(key), hear);
    // What reached a run admitted begun before it executed here (a cancel), as if heard now.
    for (const text of admitted?.heard ?? []) hear(text);
    const executing: Executing = { kind, run, done: Promise.resolve() };
    const observe = this.#options.observe;
    // Execution begins on a later event-loop turn: the request that created the run answers first,
    // and a run stays Queued (cancellable outright) until then.
    executing.done = new Promise<void>((resolve) => setImmediate(resolve))
      .then((): Promise<unknown> => (observe === undefined ? this.#drive(kind, run, admitted) : observe(key, () => this.#drive(kind, run, admitted))))
      .then(
        (): void => undefined,
        (err: unknown) => this.#options.log.error({ err, collection: key.collection, jobId: key.id }, 'a run could not be settled'),
      )
      .finally(() => {
        unsubscribe();
        if (this.#executing.get(id) === executing) this.#executing.delete(id);
        slot?.release();
      });
    this.#executing.set(id, executing);
  }

  /** Begins, executes and ends one run here; resolves with the final state written, or 'interrupted'. */
  async #drive(kind: RunKind, run: LiveRunHandle, admitted?: Admitted): Promise<string> {
    const { storage, instanceId } = this.#options;
    // The admitted record serves when it was stored begun, or when its begin is a compare-and-set;
    // otherwise the stored one is read.
    const begunAtAdmission = admitted?.begun === true;
    const fromAdmission = admitted !== undefined && (begunAtAdmission || kind.begin(admitted.record, storage.clock.now()) !== null);
    const record = fromAdmission ? admitted.record : await storage.records.get(run.key);
    if (record === undefined || record.state === null || !kind.liveStates.includes(record.state) || record.leaseHolder !== instanceId) return 'interrupted';
    // A run stored begun began from Queued: nothing of it (items, events, approvals) exists yet.
    run.begin(record, begunAtAdmission ? QUEUED : record.state);
    const begun = begunAtAdmission ? null : kind.begin(record, storage.clock.now());
    if (begun !== null) {
      const started = await run.commit({ record: { patch: { state: begun.state, data: begun.data }, guard: { version: record.version } } });
      if (!started.committed) return 'interrupted';
    }
    let outcome: unknown;
    let threw: { readonly error: unknown } | null = null;
    try {
      // Stopped before it executed (a cancel heard while it was admitted): its family never executes it.
      if (run.signal.aborted) throw run.signal.reason;
      outcome = await kind.execute(run);
    } catch (error) {
      threw = { error };
    }
    await run.flush();
    if (run.fenced) return 'interrupted';
    if (outcome === INTERRUPTED) {
      // Drained: what it checkpointed stays; the rest is resumed by the instance that takes it over.
      run.stop(hostStopping(), true);
      return 'interrupted';
    }
    const stopped = stopRequestOf(run.signal);
    if (threw === null && outcome instanceof RunWaits) {
      // Waiting for a person while a stop arrived: the stop wins.
      if (stopped !== null) return (await this.#settle(kind, run.record, { type: 'stopped', stopped }, { states: kind.liveStates, leaseHolder: instanceId })) ?? 'interrupted';
      return this.#park(kind, run, outcome);
    }
    let ending: RunEnding<unknown>;
    if (threw === null) ending = { type: 'completed', outcome, stopped };
    else if (stopped !== null) ending = { type: 'stopped', stopped };
    else if (isStorageUnavailable(threw.error)) {
      // Not the run's fault: leave it as checkpointed; once the storage is back it is taken over.
      run.fence();
      return 'interrupted';
    } else {
      this.#options.log.error({ err: threw.error, collection: run.key.collection, jobId: run.key.id }, 'a run executor threw');
      ending = { type: 'crashed' };
    }
    return (await this.#settle(kind, run.record, ending, { states: kind.liveStates, leaseHolder: instanceId })) ?? 'interrupted';
  }

  /**
   * Parks a run that waits for a person: its kind's parked record stored with the lease released (its
   * slot is given back when its execution ends), then — a decision may have landed before the park
   * was written — woken at once if its approval was decided meanwhile.
   */
  async #park(kind: RunKind, run: LiveRunHandle, waits: RunWaits): Promise<string> {
    const waiting = kind.waiting;
    if (waiting === undefined) throw new Error(`run kind ${kind.collection} returned RunWaits but cannot wait`);
    const settling = this.#settling(run.record, { states: kind.liveStates, leaseHolder: this.#options.instanceId });
    const parked = await waiting.park(settling, waits);
    const done = await settling.commit({ events: parked.events, record: { patch: { state: waiting.state, data: parked.data, lease: null } }, ...(parked.outbox === undefined ? {} : { outbox: parked.outbox }) });
    if (!done.committed || done.record === undefined) return 'interrupted';
    this.#options.log.info({ collection: run.key.collection, jobId: run.key.id, approvalId: waits.approvalId }, 'run parked for a decision');
    const early = await waiting.decided(done.record);
    if (early === undefined || !(await this.#wake(kind, done.record, early))) this.#armDeadline(kind, run.key, waits);
    // One word for every kind's park (a workflow run's state is Blocked, a bundle run's Parked): the execution ended, the run did not.
    return PARKED_EXECUTION;
  }

  /** Has the family write `ending` under `guard`; the final state written, or null when refused. */
  async #settle(kind: RunKind, record: StoredRecord, ending: RunEnding<unknown>, guard: UpdateGuard): Promise<string | null> {
    return kind.settle(this.#settling(record, guard), ending);
  }

  /** The run as a family writes its end (or its park) with: each commit under `guard`. */
  #settling(record: StoredRecord, guard: UpdateGuard): SettlingRun<unknown> {
    const { storage } = this.#options;
    const key: RecordKey = { collection: record.collection, ownerId: record.ownerId, id: record.id };
    return {
      key,
      record,
      now: storage.clock.now(),
      commit: (change) => storage.journal.commit(key, { ...change, record: { patch: change.record.patch, guard: { ...change.record.guard, ...guard } } }),
    };
  }

  #aliveHere(key: RecordKey): boolean {
    const id = keyString(key);
    const admittedAt = this.#admitting.get(id);
    if (admittedAt !== undefined) {
      // Admitted and never dispatched (the request that admitted it refused it after all): alive for a lease's time.
      if (this.#options.storage.clock.now() - admittedAt < this.#options.leaseTtlMs) return true;
      this.#admitting.delete(id);
    }
    return this.#executing.has(id) || this.#claiming.has(id) || (this.#kinds.get(key.collection)?.lane.has(id) ?? false);
  }

  #entry(collection: string): { kind: RunKind; lane: RunLane } {
    const entry = this.#kinds.get(collection);
    if (entry === undefined) throw new Error(`no run kind ${collection} is registered`);
    return entry;
  }
}
