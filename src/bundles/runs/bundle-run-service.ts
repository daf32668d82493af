// The bundle run use cases, framework-free: start a run (the STARTING caller's envelope, from the
// access policy, captured in the record; started through the run engine's `startRun` like every
// family's runs, under MaxActiveBundleRunsPerOwner — a background run leased here and dispatched, a
// streamed one stored under the stream reservation until its stream claims it),
// read and list runs, open a reserved run's stream (claimed and driven on this instance, its frames
// followed from the run's journal), one AG-UI turn. An unopened stream reservation past
// StreamReservationTtl ends as reclaimed (DESIGN §10), seen from any read; the run engine writes it.
import type { AccessPolicy } from '../../platform/access/index.js';
import { approvalNotFound, isOpen, type Approvals } from '../../approvals/index.js';
import type { Principal } from '../../platform/auth/index.js';
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { BundleExecutionConfig } from '../../platform/config/types.js';
import { ProblemError } from '../../platform/problems/index.js';
import type { SharedSlots } from '../../platform/rate-limit/index.js';
import type { JournalEvent, RecordKey, StoredRecord } from '../../platform/storage/index.js';
import { followJournal, QUEUED, type RunEngine } from '../../runs/index.js';
import type { AguiTurn } from '../agui/agui-turn.js';
import { onThread } from '../agui/on-thread.js';
import type { ConversationStore } from '../conversations/conversation-store.js';
import type { HandleStore } from '../handles/handle-store.js';
import type { Page } from '../handles/handle-service.js';
import { CONVERSATION_NOT_FOUND_DETAIL, HANDLE_NOT_FOUND_DETAIL, RUN_NOT_FOUND_DETAIL, runNotStreamable, tooManyActiveRuns, tooManyStreams } from '../problems.js';
import { DEFAULT_MAX_TURNS, type BundleRunResponse, type RunBundleRequest, type StartRunResponse } from '../schemas.js';
import { isTerminalFrame, type BundleFrame } from './bundle-frame.js';
import { bundleRunKey, STREAM_RESERVATION, type BundleRunStore } from './bundle-run-store.js';
import { RUN_HOST_STOPPED } from './run-errors.js';
import type { BundleRunRecord, QueuedRun, RunChannel } from './run-record.js';
import { runResponseOf } from './run-response.js';
import type { RunStream } from './run-stream.js';

export interface BundleRunServiceOptions {
  readonly config: BundleExecutionConfig;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly access: AccessPolicy;
  readonly handles: HandleStore;
  readonly runs: BundleRunStore;
  readonly conversations: ConversationStore;
  readonly engine: RunEngine;
  readonly streamSlots: SharedSlots;
  readonly approvals: Approvals;
  readonly log: { warn(details: object, message: string): void };
}

/** An AG-UI resume entry (RunAgentInput.resume): `resolved` answers an interrupt, `cancelled` rejects it. */
export interface AguiResume {
  readonly interruptId: string;
  readonly status: 'resolved' | 'cancelled';
  readonly payload?: { readonly decision?: 'Approve' | 'Reject'; readonly comment?: string; readonly payload?: unknown };
}

export class BundleRunService {
  readonly #options: BundleRunServiceOptions;

  constructor(options: BundleRunServiceOptions) {
    this.#options = options;
  }

  async start(principal: Principal, handle: string, request: RunBundleRequest, requestId: string | null = null, channel?: RunChannel): Promise<StartRunResponse> {
    const { config, clock, ids, handles, runs, conversations, engine } = this.#options;
    const found = await handles.touch(principal, handle);
    if (found === undefined) throw new ProblemError('not-found', HANDLE_NOT_FOUND_DETAIL);
    const conversationId = request.conversationId ?? null;
    await this.#reclaimReservations(principal);
    const now = clock.now();
    const stream = request.stream === true;
    const jobId = ids.opaque();
    const record: QueuedRun = {
      jobId,
      handle: found.handle,
      ownerId: principal.ownerId,
      mode: stream ? 'stream' : 'background',
      createdAt: now,
      agent: found.manifest.id,
      // A2A runs (DESIGN §20) say so, and keep their conversation as the task's contextId.
      ...(channel === undefined ? {} : { channel, ...(conversationId === null ? {} : { contextId: conversationId }) }),
      status: 'Queued',
      input: {
        userMessages: [...request.userMessages],
        maxTurns: request.maxTurns ?? DEFAULT_MAX_TURNS,
        conversationId,
        envelope: this.#options.access.authorize(principal, 'bundles.run', { jobId, requestId, ...(channel === undefined ? {} : { channel }) }),
        requestedBy: principal.displayName ?? null,
      },
      reservationExpiresAt: stream ? now + config.streamReservationTtlMs : null,
    };
    const reservation = stream ? { reserved: { holder: STREAM_RESERVATION, expiresAt: now + config.streamReservationTtlMs } } : {};
    // Stored Queued (its poll says so until it begins), never begun at admission.
    const admitted = await engine.startRun<BundleRunRecord>(
      bundleRunKey(record),
      { state: 'Queued', createdAt: now, data: record },
      async (first) => {
        const inserted = await runs.admit(record, config.maxActiveBundleRunsPerOwner, first.lease);
        // Claimed only once the run is admitted, so a refused start never creates a conversation.
        if (inserted.outcome === 'inserted' && conversationId !== null && !(await conversations.claim(principal, conversationId))) {
          await runs.discard(record);
          throw new ProblemError('not-found', CONVERSATION_NOT_FOUND_DETAIL);
        }
        return inserted;
      },
      { beginAtAdmission: false, ...reservation },
    );
    if (admitted.outcome !== 'inserted') throw tooManyActiveRuns();
    const statusUrl = `/api/bundles/${encodeURIComponent(found.handle)}/runs/${encodeURIComponent(jobId)}`;
    return { jobId, statusUrl, streamUrl: stream ? `${statusUrl}/stream` : null };
  }

  async get(principal: Principal, handle: string, jobId: string): Promise<BundleRunResponse> {
    const [, found] = await Promise.all([this.#options.handles.slide(principal, handle), this.#options.runs.find(principal, handle, jobId)]);
    const run = await this.#reclaimed(principal, found);
    if (run === undefined) throw new ProblemError('not-found', RUN_NOT_FOUND_DETAIL);
    return runResponseOf(run);
  }

  /**
   * `get` answered at once when it needs no storage: a finished run this instance keeps, under a
   * handle whose expiry it saw fresh (the poll's slide has nothing to write). Undefined otherwise,
   * unknown and foreign runs included: `get` answers those.
   */
  getNow(principal: Principal, handle: string, jobId: string): BundleRunResponse | undefined {
    if (!this.#options.handles.slidNow(principal, handle)) return undefined;
    const run = this.#options.runs.finishedNow(principal, jobId);
    return run === undefined || run.handle !== handle ? undefined : runResponseOf(run);
  }

  /** The caller's runs under a handle they own (a foreign or unknown handle is 404), newest first. */
  async list(principal: Principal, handle: string, page: Page): Promise<{ runs: BundleRunResponse[]; nextCursor: string | null }> {
    if ((await this.#options.handles.touch(principal, handle)) === undefined) throw new ProblemError('not-found', HANDLE_NOT_FOUND_DETAIL);
    const found = await this.#options.runs.list(principal, handle, page);
    const runs = await Promise.all(found.runs.map((run) => this.#reclaimed(principal, run)));
    return { runs: runs.flatMap((run) => (run === undefined ? [] : [runResponseOf(run)])), nextCursor: found.nextCursor };
  }

  /** The caller's run record under a handle (reclaimed if its stream reservation lapsed); undefined when foreign or unknown. */
  async record(principal: Principal, handle: string, jobId: string): Promise<BundleRunRecord | undefined> {
    return this.#reclaimed(principal, await this.#options.runs.find(principal, handle, jobId));
  }

  /** The caller's run records under a handle, newest first (the handle itself is not checked: see list). */
  async records(principal: Principal, handle: string, page: Page): Promise<{ runs: BundleRunRecord[]; nextCursor: string | null }> {
    const found = await this.#options.runs.list(principal, handle, page);
    const runs = await Promise.all(found.runs.map((run) => this.#reclaimed(principal, run)));
    return { runs: runs.flatMap((run) => (run === undefined ? [] : [run])), nextCursor: found.nextCursor };
  }

  /** Cancels a live run of the caller (any instance executes it): ended at once when idle, signalled when executing. */
  async cancel(run: BundleRunRecord): Promise<void> {
    await this.#options.engine.cancel(bundleRunKey(run));
  }

  /** The run's frames after journal position `after`, as committed, then live, until `signal` aborts. */
  frames(run: BundleRunRecord, after: number, signal: AbortSignal, finish?: AbortSignal): AsyncGenerator<JournalEvent<BundleFrame>> {
    const log = this.#options.log;
    const outage = { failed: (err: unknown) => log.warn({ err, jobId: run.jobId }, 'a bundle run follower is waiting for the storage'), succeeded: () => undefined };
    return followJournal<BundleFrame>(this.#options.runs.journal, bundleRunKey(run), after, signal, { ...(finish === undefined ? {} : { finish }), outage });
  }

  /** Where the run's frames stopped for `approvalId` (for the last interrupt when none is named); 0 when they never did. */
  interruptAt(run: BundleRunRecord, approvalId?: string): Promise<number> {
    return interruptSeq(this.#options.runs.journal, bundleRunKey(run), approvalId);
  }

  /** Claims a reserved queued run for this connection and starts driving it here. */
  async openStream(principal: Principal, handle: string, jobId: string): Promise<RunStream> {
    const { handles, runs, engine, streamSlots } = this.#options;
    await handles.touch(principal, handle);
    const run = await this.#reclaimed(principal, await runs.find(principal, handle, jobId));
    if (run === undefined) throw new ProblemError('not-found', RUN_NOT_FOUND_DETAIL);
    if (run.status !== 'Queued' || run.mode !== 'stream') throw runNotStreamable();
    const slot = await streamSlots.tryAcquire(principal.ownerId);
    if (slot === null) throw tooManyStreams();
    const key = bundleRunKey(run);
    const claimed = await engine.claimInline(key, STREAM_RESERVATION).catch((error: unknown) => {
      slot.release();
      throw error;
    });
    if (!claimed) {
      slot.release();
      throw runNotStreamable();
    }
    const { journal } = runs;
    const log = this.#options.log;
    return {
      frames: async function* (signal, finish) {
        const outage = { failed: (err: unknown) => log.warn({ err, jobId }, 'a bundle run stream is waiting for the storage'), succeeded: () => undefined };
        for await (const entry of followJournal<BundleFrame>(journal, key, 0, signal, { finish, outage })) {
          yield entry;
          if (isTerminalFrame(entry.event)) return;
        }
        // The host stopped without the run ending here (it is left for another instance): say so.
        if (finish.aborted && !signal.aborted) yield { seq: 0, event: { type: 'RUN_ERROR', message: RUN_HOST_STOPPED } };
      },
      cancel: (cause) => void engine.cancel(key, cause === undefined ? {} : { cause }).catch((err: unknown) => log.warn({ err, jobId }, 'cancelling a streamed run failed')),
      release: () => slot.release(),
    };
  }

  /**
   * DESIGN §12 AG-UI: one turn of the thread as a run reserved for streaming, its stream opened at once
   * (the same start and stream as `stream: true` followed by GET …/stream, so the same envelope, ownership,
   * limits and frames). A stream that cannot be opened withdraws the reservation, so no run is left waiting.
   */
  async runAgui(principal: Principal, handle: string, turn: AguiTurn, requestId: string | null = null): Promise<{ readonly jobId: string; readonly stream: RunStream }> {
    const started = await this.start(principal, handle, { userMessages: [turn.message], conversationId: turn.threadId, stream: true }, requestId);
    try {
      const stream = await this.openStream(principal, handle, started.jobId);
      return { jobId: started.jobId, stream: onThread(stream, turn.threadId) };
    } catch (error) {
      const reserved = await this.#reservation(principal, handle, started.jobId);
      if (reserved !== undefined) await this.#options.engine.endQueued(reserved, { type: 'stopped', stopped: { cause: 'cancelled' } }, { leaseHolder: STREAM_RESERVATION });
      throw error;
    }
  }

  /**
   * DESIGN §13 AG-UI resume: each entry decides its interrupt (an approval of a run under this handle)
   * when the caller may decide and it is still open — through the approval contract, so the run
   * resumes wherever the decision lands — then the same job's continuation is streamed: the frames
   * after the interrupt, RUN_STARTED (same runId) first. An interrupt already decided by someone else
   * only attaches. Unknown or foreign interrupts are 404; a caller who may not decide an open one, 403.
   */
  async resumeAgui(principal: Principal, handle: string, threadId: string, entries: readonly AguiResume[], requestId: string | null = null): Promise<{ readonly jobId: string; readonly stream: RunStream }> {
    const { approvals, runs, streamSlots, handles } = this.#options;
    if ((await handles.touch(principal, handle)) === undefined) throw new ProblemError('not-found', HANDLE_NOT_FOUND_DETAIL);
    let jobId: string | undefined;
    let interruptId: string | undefined;
    for (const entry of entries) {
      const approval = await approvals.store.get(principal, entry.interruptId);
      if (approval === undefined || approval.runKind !== 'bundle' || approval.handle !== handle || (jobId !== undefined && approval.jobId !== jobId)) throw approvalNotFound();
      jobId = approval.jobId;
      interruptId ??= approval.approvalId;
      // Decided, or past its deadline (expired, whoever has yet to write it): this entry only attaches.
      if (!isOpen(approval, this.#options.clock.now())) continue;
      const decision = entry.status === 'cancelled' ? 'Reject' : (entry.payload?.decision ?? 'Approve');
      try {
        await approvals.decide(
          principal,
          approval.approvalId,
          { decision, comment: entry.payload?.comment ?? null, ...(entry.payload?.payload === undefined ? {} : { payload: entry.payload.payload }) },
          { requestId },
        );
      } catch (error) {
        // Decided (or expired) by someone else meanwhile: this resume only attaches.
        if (!(error instanceof ProblemError && error.code === 'conflict')) throw error;
      }
    }
    if (jobId === undefined || interruptId === undefined) throw approvalNotFound();
    const run = await runs.find(principal, handle, jobId);
    if (run === undefined) throw new ProblemError('not-found', RUN_NOT_FOUND_DETAIL);
    const slot = await streamSlots.tryAcquire(principal.ownerId);
    if (slot === null) throw tooManyStreams();
    const key = bundleRunKey(run);
    const { journal } = runs;
    const log = this.#options.log;
    const waitedOn = interruptId;
    const stream: RunStream = {
      frames: async function* (signal, finish) {
        const after = await interruptSeq(journal, key, waitedOn);
        const outage = { failed: (err: unknown) => log.warn({ err, jobId: key.id }, 'a resumed AG-UI stream is waiting for the storage'), succeeded: () => undefined };
        for await (const entry of followJournal<BundleFrame>(journal, key, after, signal, { finish, outage })) {
          yield entry;
          if (isTerminalFrame(entry.event)) return;
        }
        if (finish.aborted && !signal.aborted) yield { seq: 0, event: { type: 'RUN_ERROR', message: RUN_HOST_STOPPED } };
      },
      // The continuation executes in the background lane: closing this stream leaves it running (poll it).
      cancel: () => undefined,
      release: () => slot.release(),
    };
    return { jobId, stream: onThread(stream, threadId) };
  }

  /** An unopened stream reservation past its TTL ends as reclaimed; answers the run as it now stands. */
  async #reclaimed(principal: Principal, run: BundleRunRecord | undefined): Promise<BundleRunRecord | undefined> {
    if (run === undefined || !reservationLapsed(run, this.#options.clock.now())) return run;
    const reserved = await this.#reservation(principal, run.handle, run.jobId);
    // Compare-and-set by the engine: a stream that claimed it in the meantime wins.
    if (reserved !== undefined) await this.#options.engine.endQueued(reserved, { type: 'abandoned' }, { leaseHolder: STREAM_RESERVATION });
    return this.#options.runs.find(principal, run.handle, run.jobId);
  }

  /** The run's record while it is still an unclaimed stream reservation. */
  async #reservation(principal: Principal, handle: string, jobId: string): Promise<StoredRecord<BundleRunRecord> | undefined> {
    const run = await this.#options.runs.find(principal, handle, jobId);
    if (run === undefined) return undefined;
    const stored = await this.#options.runs.stored(bundleRunKey(run));
    return stored?.leaseHolder === STREAM_RESERVATION && stored.state === QUEUED ? stored : undefined;
  }

  async #reclaimReservations(principal: Principal): Promise<void> {
    for (const run of await this.#options.runs.queued(principal)) await this.#reclaimed(principal, run);
  }
}

function reservationLapsed(run: BundleRunRecord, now: number): boolean {
  return run.status === 'Queued' && run.reservationExpiresAt !== null && run.reservationExpiresAt <= now;
}

/** The journal position of the interrupt frame that stopped the run for `approvalId` — of the last interrupt when none is named (0 when none is found). */
async function interruptSeq(journal: BundleRunStore['journal'], key: RecordKey, approvalId?: string): Promise<number> {
  let after = 0;
  let last = 0;
  for (;;) {
    const page = await journal.events<BundleFrame>(key, after, 500);
    for (const { seq, event } of page) {
      if (event.type !== 'RUN_FINISHED' || event.outcome === undefined) continue;
      if (approvalId === undefined) last = seq;
      else if (event.outcome.interrupts.some((interrupt) => interrupt.id === approvalId)) return seq;
    }
    if (page.length < 500) return last;
    after = page.at(-1)!.seq;
  }
}
