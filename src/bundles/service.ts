// The bundle use cases, framework-free: register an uploaded archive, list and delete handles, start,
// list and read runs, open a run's stream, sweep, shut down. Takes the caller's principal and plain
// values; ownership is enforced by the storage port (foreign ≡ unknown), the envelope is resolved from
// the STARTING caller, runs are admitted and executed by the one run engine, and every refusal is a
// ProblemError from problems.ts.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Principal } from '../platform/auth/index.js';
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { BundleExecutionConfig } from '../platform/config/types.js';
import { resolveEnvelope } from '../platform/envelope/index.js';
import { ProblemError } from '../platform/problems/index.js';
import type { SharedSlots } from '../platform/rate-limit/index.js';
import { LocalEventLog, type RunEngine } from '../runs/index.js';
import { checkStagingRoot, isArchiveRejected, stageArchive, type ArchiveLimits } from './archive/index.js';
import type { ConversationStore } from './conversations/conversation-store.js';
import type { BundleHandle } from './handles/bundle-handle.js';
import type { HandleStore } from './handles/handle-store.js';
import { removeLeftovers } from './handles/remove-leftovers.js';
import type { StagingLeases } from './handles/staging-leases.js';
import { stagingPrefix } from './handles/staging-names.js';
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
import type { BundleFrame } from './runs/bundle-frame.js';
import { RUN_CANCELLED, RUN_RESERVATION_EXPIRED } from './runs/run-errors.js';
import type { BundleRunRecord, QueuedRun } from './runs/run-record.js';
import { runResponseOf } from './runs/run-response.js';
import { runKey, STREAM_RESERVATION, type RunStore } from './runs/run-store.js';
import type { RunStream } from './runs/run-stream.js';
import { failRun } from './runs/run-transitions.js';
import {
  DEFAULT_MAX_TURNS,
  type BundleRunResponse,
  type RegisterBundleResponse,
  type RunBundleRequest,
  type StartRunResponse,
} from './schemas.js';
import { stagingRootOf } from './handles/staging-root.js';
import type { AguiTurn } from './agui/agui-turn.js';
import { onThread } from './agui/on-thread.js';
import { isoInstant } from '../platform/clock/index.js';

export interface BundleServiceOptions {
  readonly config: BundleExecutionConfig;
  /** Agent and skill discovery paths: the staging root must not overlap them. */
  readonly discoveryPaths: readonly string[];
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly handles: HandleStore;
  readonly staging: StagingLeases;
  readonly runs: RunStore;
  readonly conversations: ConversationStore;
  readonly engine: RunEngine;
  /** Frame logs of runs driven by a stream on this instance, by job id (the executor reads them). */
  readonly frameLogs: Map<string, LocalEventLog<BundleFrame>>;
  readonly streamSlots: SharedSlots;
  /** Whether the storage outlives this process (the archive is then kept for other instances). */
  readonly durable: boolean;
  readonly log: ManifestLog;
}

/** Writes the uploaded archive to `target`; resolves with the uploaded file name, if any. */
export type ReceiveArchive = (target: string) => Promise<string | undefined>;

export interface Page {
  readonly limit: number;
  readonly cursor: string | null;
}

export class BundleService {
  readonly #o: BundleServiceOptions;
  readonly #limits: ArchiveLimits;
  readonly #stagingRoot: string;
  /** Uploads being staged here: their directories exist before any handle holds them. */
  #staging = 0;

  constructor(options: BundleServiceOptions) {
    this.#o = options;
    const { maxArchiveBytes, maxEntryCount, maxTotalUncompressedBytes, maxCompressionRatio } = options.config;
    this.#limits = { maxArchiveBytes, maxEntryCount, maxTotalUncompressedBytes, maxCompressionRatio };
    this.#stagingRoot = stagingRootOf(options.config.tempRoot);
  }

  async register(principal: Principal, receive: ReceiveArchive): Promise<RegisterBundleResponse> {
    if (!checkStagingRoot(this.#stagingRoot, this.#o.discoveryPaths)) throw stagingRootOverlaps();
    await mkdir(this.#stagingRoot, { recursive: true, mode: 0o700 });
    const upload = join(this.#stagingRoot, `${stagingPrefix('upload')}${this.#o.ids.opaque()}.zip`);
    this.#staging += 1;
    try {
      const uploadName = await receive(upload);
      const staged = await this.#stage(upload, uploadName);
      const handle = this.#o.ids.opaque();
      const expiresAt = await this.#o.handles.add(
        {
          handle,
          ownerId: principal.ownerId,
          dir: staged.dir,
          manifest: staged.manifest,
          systemPrompt: composeSystemPrompt(staged.manifest),
          createdAt: this.#o.clock.now(),
        },
        this.#o.durable ? await readFile(upload) : null,
      );
      return { handle, expiresAt: isoInstant(expiresAt) };
    } catch (error) {
      if (isArchiveRejected(error)) throw new ProblemError('validation-failed', error.detail, { cause: error });
      throw error;
    } finally {
      this.#staging -= 1;
      await rm(upload, { force: true });
    }
  }

  /** Non-disclosing: the same silence for an own, foreign, unknown or expired handle. */
  async deleteHandle(principal: Principal, handle: string): Promise<void> {
    await this.#o.handles.remove(principal, handle);
  }

  async listHandles(principal: Principal, page: Page): Promise<{ handles: Array<{ handle: string; agentId: string; expiresAt: string; createdAt: string }>; nextCursor: string | null }> {
    const found = await this.#o.handles.list(principal, page);
    return {
      handles: found.handles.map((h) => ({ handle: h.handle, agentId: h.manifest.id, expiresAt: isoInstant(h.expiresAt), createdAt: isoInstant(h.createdAt) })),
      nextCursor: found.nextCursor,
    };
  }

  async startRun(principal: Principal, handle: string, request: RunBundleRequest): Promise<StartRunResponse> {
    const found = await this.#o.handles.touch(principal, handle);
    if (found === undefined) throw new ProblemError('not-found', HANDLE_NOT_FOUND_DETAIL);
    const conversationId = request.conversationId ?? null;
    await this.#reclaimReservations(principal);
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
    const lease = stream ? { holder: STREAM_RESERVATION, expiresAt: now + this.#o.config.streamReservationTtlMs } : this.#o.engine.lease();
    const admitted = await this.#o.runs.admit(record, this.#o.config.maxActiveBundleRunsPerOwner, lease);
    if (admitted.outcome !== 'inserted') throw tooManyActiveRuns();
    // Claimed only once the run is admitted, so a refused start never creates a conversation.
    if (conversationId !== null && !(await this.#o.conversations.claim(principal, conversationId))) {
      await this.#o.runs.discard(record);
      throw new ProblemError('not-found', CONVERSATION_NOT_FOUND_DETAIL);
    }
    if (!stream) this.#o.engine.dispatch(runKey(record));
    const statusUrl = `/api/bundles/${encodeURIComponent(found.handle)}/runs/${encodeURIComponent(record.jobId)}`;
    return { jobId: record.jobId, statusUrl, streamUrl: stream ? `${statusUrl}/stream` : null };
  }

  async getRun(principal: Principal, handle: string, jobId: string): Promise<BundleRunResponse> {
    const [, found] = await Promise.all([this.#o.handles.slide(principal, handle), this.#o.runs.find(principal, handle, jobId)]);
    const run = found !== undefined && reservationLapsed(found, this.#o.clock.now()) ? await this.#reclaim(principal, found) : found;
    if (run === undefined) throw new ProblemError('not-found', RUN_NOT_FOUND_DETAIL);
    return runResponseOf(run);
  }

  /** The caller's runs under a handle they own (a foreign or unknown handle is 404), newest first. */
  async listRuns(principal: Principal, handle: string, page: Page): Promise<{ runs: BundleRunResponse[]; nextCursor: string | null }> {
    if ((await this.#o.handles.touch(principal, handle)) === undefined) throw new ProblemError('not-found', HANDLE_NOT_FOUND_DETAIL);
    const found = await this.#o.runs.list(principal, handle, page);
    const runs = await Promise.all(found.runs.map((run) => this.#reclaimed(principal, run)));
    return { runs: runs.flatMap((run) => (run === undefined ? [] : [runResponseOf(run)])), nextCursor: found.nextCursor };
  }

  /** Claims a reserved queued run for this connection and starts driving it here. */
  async openStream(principal: Principal, handle: string, jobId: string): Promise<RunStream> {
    await this.#o.handles.touch(principal, handle);
    const run = await this.#reclaimed(principal, await this.#o.runs.find(principal, handle, jobId));
    if (run === undefined) throw new ProblemError('not-found', RUN_NOT_FOUND_DETAIL);
    if (run.status !== 'Queued' || run.mode !== 'stream') throw runNotStreamable();
    const slot = await this.#o.streamSlots.tryAcquire(principal.ownerId);
    if (slot === null) throw tooManyStreams();
    const key = runKey(run);
    const log = new LocalEventLog<BundleFrame>();
    this.#o.frameLogs.set(jobId, log);
    let claimed = false;
    try {
      claimed = await this.#o.engine.claimInline(key, STREAM_RESERVATION, ['Queued']);
    } finally {
      if (!claimed) {
        this.#o.frameLogs.delete(jobId);
        slot.release();
      }
    }
    if (!claimed) throw runNotStreamable();
    return {
      frames: (signal) => log.read(0, signal),
      cancel: (reason = RUN_CANCELLED) => void this.#o.engine.cancel(key, reason),
      release: () => {
        if (this.#o.frameLogs.get(jobId) === log) this.#o.frameLogs.delete(jobId);
        slot.release();
      },
    };
  }

  /**
   * DESIGN §12 AG-UI: one turn of the thread as a run reserved for streaming, its stream opened at once
   * (the same start and stream as `stream: true` followed by GET …/stream, so the same envelope, ownership,
   * limits and frames). A stream that cannot be opened withdraws the reservation, so no run is left waiting.
   */
  async runAgui(principal: Principal, handle: string, turn: AguiTurn): Promise<{ readonly jobId: string; readonly stream: RunStream }> {
    const started = await this.startRun(principal, handle, { userMessages: [turn.message], conversationId: turn.threadId, stream: true });
    try {
      const stream = await this.openStream(principal, handle, started.jobId);
      return { jobId: started.jobId, stream: onThread(stream, turn.threadId) };
    } catch (error) {
      await this.#withdrawReservation(principal, handle, started.jobId);
      throw error;
    }
  }

  /** One cleanup pass: expired handles (and their directories), runs, conversations, leftovers of crashed processes. */
  async sweep(): Promise<void> {
    await this.#o.handles.sweep();
    await this.#o.runs.sweep();
    await this.#o.conversations.sweep();
    await this.removeLeftovers();
  }

  /** Removes staging folders this host created that no live handle owns (start-up and every sweep). */
  async removeLeftovers(): Promise<void> {
    const staging = this.#staging > 0;
    await removeLeftovers({ stagingRoot: this.#stagingRoot, owned: (dir) => staging || this.#o.staging.owns(dir) });
  }

  /** Stages an archive on this instance: received now, or stored for a handle registered elsewhere. */
  async #stage(zipPath: string, uploadName: string | undefined): Promise<{ dir: string; manifest: BundleHandle['manifest'] }> {
    return stageArchive({ zipPath, stagingRoot: this.#stagingRoot, uploadName, dirPrefix: stagingPrefix('bundle'), log: this.#o.log }, this.#limits);
  }

  /** Stages the stored archive of a handle registered through another instance (its guards run again). */
  readonly restage = async (handle: BundleHandle, archive: Buffer): Promise<string | null> => {
    await mkdir(this.#stagingRoot, { recursive: true, mode: 0o700 });
    const upload = join(this.#stagingRoot, `${stagingPrefix('upload')}${this.#o.ids.opaque()}.zip`);
    this.#staging += 1;
    try {
      await writeFile(upload, archive, { mode: 0o600 });
      return (await this.#stage(upload, `${handle.manifest.id}.zip`)).dir;
    } catch {
      return null;
    } finally {
      this.#staging -= 1;
      await rm(upload, { force: true });
    }
  };

  /** An unopened stream reservation past StreamReservationTtl ends Failed (DESIGN.md §10), seen from any read. */
  async #reclaimed(principal: Principal, run: BundleRunRecord | undefined): Promise<BundleRunRecord | undefined> {
    return run === undefined || !reservationLapsed(run, this.#o.clock.now()) ? run : this.#reclaim(principal, run);
  }

  /** Fails a run whose stream reservation lapsed unclaimed; answers the run as it now stands. */
  async #reclaim(principal: Principal, run: LapsedReservation): Promise<BundleRunRecord | undefined> {
    const now = this.#o.clock.now();
    const stored = await this.#o.runs.stored(runKey(run));
    // Compare-and-set on the version read: a stream that claimed it in the meantime wins.
    if (stored?.leaseHolder === STREAM_RESERVATION && stored.data.status === 'Queued') {
      const failed = failRun(stored.data, RUN_RESERVATION_EXPIRED, run.reservationExpiresAt);
      await this.#o.runs.transition(failed, { from: ['Queued'], version: stored.version }, now);
    }
    return this.#o.runs.find(principal, run.handle, run.jobId);
  }

  /** A reserved run nobody claimed ends Failed as cancelled (compare-and-set: a claim in between wins). */
  async #withdrawReservation(principal: Principal, handle: string, jobId: string): Promise<void> {
    const run = await this.#o.runs.find(principal, handle, jobId);
    if (run === undefined) return;
    const stored = await this.#o.runs.stored(runKey(run));
    if (stored?.leaseHolder !== STREAM_RESERVATION || stored.data.status !== 'Queued') return;
    const now = this.#o.clock.now();
    await this.#o.runs.transition(failRun(stored.data, RUN_CANCELLED, now), { from: ['Queued'], version: stored.version }, now);
  }

  async #reclaimReservations(principal: Principal): Promise<void> {
    for (const run of await this.#o.runs.queued(principal)) await this.#reclaimed(principal, run);
  }
}

/** A run reserved for a stream that nobody claimed in time. */
type LapsedReservation = QueuedRun & { readonly reservationExpiresAt: number };

function reservationLapsed(run: BundleRunRecord, now: number): run is LapsedReservation {
  return run.status === 'Queued' && run.reservationExpiresAt !== null && run.reservationExpiresAt <= now;
}
