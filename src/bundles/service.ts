// The bundle use cases, framework-free: register an uploaded archive, delete a handle, start a run,
// read a run, open a run's stream, sweep, shut down. Takes the caller's principal and plain values;
// ownership is enforced by the owned stores (foreign ≡ unknown), the envelope is resolved from the
// STARTING caller, and every refusal is a ProblemError from problems.ts.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Principal } from '../platform/auth/index.js';
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { BundleExecutionConfig } from '../platform/config/types.js';
import { resolveEnvelope } from '../platform/envelope/index.js';
import { ProblemError } from '../platform/problems/index.js';
import type { ConcurrencySlots } from '../platform/rate-limit/index.js';
import { checkStagingRoot, isArchiveRejected, stageArchive, type ArchiveLimits } from './archive/index.js';
import type { ActiveRun, ActiveRuns } from './active-runs.js';
import type { ConversationStore } from './conversation-store.js';
import type { Dispatcher } from './dispatcher.js';
import type { HandleStore } from './handle-store.js';
import { composeSystemPrompt, type ManifestLog } from './manifest/index.js';
import {
  CONVERSATION_NOT_FOUND_DETAIL,
  HANDLE_NOT_FOUND_DETAIL,
  RUN_NOT_FOUND_DETAIL,
  runNotStreamable,
  stagingRootOverlaps,
  tooManyActiveRuns,
  tooManyStreams,
} from './problems.js';
import { RUN_CANCELLED, RUN_RESERVATION_EXPIRED } from './run-errors.js';
import type { RunExecutor } from './run-executor.js';
import type { QueuedRun } from './run-record.js';
import { toRunResponse } from './run-response.js';
import type { RunStore } from './run-store.js';
import type { RunStream } from './run-stream.js';
import { failRun } from './run-transitions.js';
import { DEFAULT_MAX_TURNS, type BundleRunResponse, type RegisterBundleResponse, type RunBundleRequest, type StartRunResponse } from './schemas.js';
import { stagingRootOf } from './staging-root.js';

export interface BundleServiceOptions {
  readonly config: BundleExecutionConfig;
  /** Agent and skill discovery paths: the staging root must not overlap them. */
  readonly discoveryPaths: readonly string[];
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly handles: HandleStore;
  readonly runs: RunStore;
  readonly active: ActiveRuns;
  readonly conversations: ConversationStore;
  readonly executor: RunExecutor;
  readonly dispatcher: Dispatcher<ActiveRun>;
  readonly streamSlots: ConcurrencySlots;
  readonly log: ManifestLog;
}

/** Writes the uploaded archive to `target`; resolves with the uploaded file name, if any. */
export type ReceiveArchive = (target: string) => Promise<string | undefined>;

const iso = (ms: number): string => new Date(ms).toISOString();

export class BundleService {
  readonly #o: BundleServiceOptions;
  readonly #limits: ArchiveLimits;
  readonly #stagingRoot: string;

  constructor(options: BundleServiceOptions) {
    this.#o = options;
    const { maxArchiveBytes, maxEntryCount, maxTotalUncompressedBytes, maxCompressionRatio } = options.config;
    this.#limits = { maxArchiveBytes, maxEntryCount, maxTotalUncompressedBytes, maxCompressionRatio };
    this.#stagingRoot = stagingRootOf(options.config.tempRoot);
  }

  async register(principal: Principal, receive: ReceiveArchive): Promise<RegisterBundleResponse> {
    if (!checkStagingRoot(this.#stagingRoot, this.#o.discoveryPaths)) throw stagingRootOverlaps();
    await mkdir(this.#stagingRoot, { recursive: true, mode: 0o700 });
    const upload = join(this.#stagingRoot, `upload-${this.#o.ids.opaque()}.zip`);
    try {
      const uploadName = await receive(upload);
      const staged = await stageArchive({ zipPath: upload, stagingRoot: this.#stagingRoot, uploadName, log: this.#o.log }, this.#limits);
      const handle = this.#o.ids.opaque();
      const expiresAt = await this.#o.handles.add({
        handle,
        ownerId: principal.ownerId,
        dir: staged.dir,
        manifest: staged.manifest,
        systemPrompt: composeSystemPrompt(staged.manifest),
        createdAt: this.#o.clock.now(),
      });
      return { handle, expiresAt: iso(expiresAt) };
    } catch (error) {
      if (isArchiveRejected(error)) throw new ProblemError('validation-failed', error.detail, { cause: error });
      throw error;
    } finally {
      await rm(upload, { force: true });
    }
  }

  /** Non-disclosing: the same silence for an own, foreign, unknown or expired handle. */
  async deleteHandle(principal: Principal, handle: string): Promise<void> {
    await this.#o.handles.remove(principal, handle);
  }

  async startRun(principal: Principal, handle: string, request: RunBundleRequest): Promise<StartRunResponse> {
    const found = await this.#o.handles.touch(principal, handle);
    if (found === undefined) throw new ProblemError('not-found', HANDLE_NOT_FOUND_DETAIL);
    const conversationId = request.conversationId ?? null;
    await this.#reclaimReservations(principal.ownerId);
    const now = this.#o.clock.now();
    const stream = request.stream === true;
    const record: QueuedRun = {
      jobId: this.#o.ids.opaque(),
      handle: found.handle,
      ownerId: principal.ownerId,
      mode: stream ? 'stream' : 'background',
      createdAt: now,
      status: 'Queued',
      input: {
        userMessages: [...request.userMessages],
        maxTurns: request.maxTurns ?? DEFAULT_MAX_TURNS,
        conversationId,
        envelope: resolveEnvelope(this.#o.config.envelopes, principal),
      },
      reservationExpiresAt: stream ? now + this.#o.config.streamReservationTtlMs : null,
    };
    const run = this.#o.active.add(record);
    if (run === null) throw tooManyActiveRuns();
    // Claimed only once the run is admitted, so a refused start never creates a conversation.
    if (conversationId !== null && !(await this.#o.conversations.claim(principal, conversationId))) {
      this.#o.active.remove(run);
      throw new ProblemError('not-found', CONVERSATION_NOT_FOUND_DETAIL);
    }
    await this.#o.runs.save(record);
    if (!stream) this.#o.dispatcher.enqueue(run);
    const statusUrl = `/api/bundles/${encodeURIComponent(found.handle)}/runs/${encodeURIComponent(record.jobId)}`;
    return { jobId: record.jobId, statusUrl, streamUrl: stream ? `${statusUrl}/stream` : null };
  }

  async getRun(principal: Principal, handle: string, jobId: string): Promise<BundleRunResponse> {
    await this.#o.handles.touch(principal, handle);
    await this.#reclaimReservations(principal.ownerId);
    const run = await this.#o.runs.find(principal, handle, jobId);
    if (run === undefined) throw new ProblemError('not-found', RUN_NOT_FOUND_DETAIL);
    return toRunResponse(run);
  }

  /** Claims a reserved queued run for this connection and starts driving it. */
  async openStream(principal: Principal, handle: string, jobId: string): Promise<RunStream> {
    await this.#o.handles.touch(principal, handle);
    await this.#reclaimReservations(principal.ownerId);
    if ((await this.#o.runs.find(principal, handle, jobId)) === undefined) throw new ProblemError('not-found', RUN_NOT_FOUND_DETAIL);
    // From here to the claim nothing awaits, so two connections can never both drive one run.
    const run = this.#o.active.find(principal.ownerId, handle, jobId);
    if (run === undefined || run.claimed || run.record.status !== 'Queued' || run.record.mode !== 'stream') throw runNotStreamable();
    const slot = this.#o.streamSlots.tryAcquire(principal.ownerId);
    if (slot === null) throw tooManyStreams();
    run.claimed = true;
    void this.#o.executor.execute(run);
    return {
      frames: (signal) => run.log.read(0, signal),
      cancel: (reason = RUN_CANCELLED) => run.controller.abort(new DOMException(reason, 'AbortError')),
      release: () => slot.release(),
    };
  }

  /** One cleanup pass: reclaimed reservations, expired handles (and their directories), runs, conversations. */
  async sweep(): Promise<void> {
    await this.#reclaimReservations();
    await this.#o.handles.sweep();
    await this.#o.runs.sweep();
    await this.#o.conversations.sweep();
  }

  /** Cancels every live run (open streams end with RUN_ERROR) and waits until all have ended. */
  async shutdown(): Promise<void> {
    const live = this.#o.active.all();
    for (const run of live) run.controller.abort(new DOMException('The host is shutting down.', 'AbortError'));
    const unstarted = new Set(await this.#o.dispatcher.close());
    for (const run of live.filter((r) => unstarted.has(r) || !r.claimed)) {
      run.claimed = true;
      await this.#o.runs.save(failRun(run.record, RUN_CANCELLED, this.#o.clock.now()));
      this.#o.active.remove(run);
    }
    await this.#o.executor.idle();
  }

  /** Unopened stream reservations past StreamReservationTtl end Failed (DESIGN.md §10). */
  async #reclaimReservations(ownerId?: string): Promise<void> {
    for (const run of this.#o.active.expiredReservations(this.#o.clock.now(), ownerId)) {
      run.claimed = true;
      const record = run.record as QueuedRun;
      await this.#o.runs.save(failRun(record, RUN_RESERVATION_EXPIRED, record.reservationExpiresAt ?? this.#o.clock.now()));
      this.#o.active.remove(run);
    }
  }
}
