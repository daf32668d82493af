// The poll projection (SPEC.md BundleRunResponse, plus DESIGN.md §5's optional `usage`): status,
// timestamps, caller-safe error and result. It reads no execution input, so none can be echoed.
import { isTerminal, type BundleRunRecord } from './run-record.js';
import type { BundleRunResponse } from '../schemas.js';
import { isoInstant } from '../../platform/clock/index.js';

/**
 * Finished runs' projections by stored record. A finished run never changes, and storage hands out
 * the same frozen record until it expires (Memory keeps it; a durable store's BundleRunStore caches it), so
 * a poll of a finished run answers one frozen object (whose written text the poll route keeps).
 */
const finished = new WeakMap<BundleRunRecord, BundleRunResponse>();

/** The poll projection of a run: built once and frozen for a finished run, fresh for a live one. */
export function runResponseOf(run: BundleRunRecord): BundleRunResponse {
  if (!isTerminal(run)) return toRunResponse(run);
  let response = finished.get(run);
  if (response === undefined) {
    response = deepFreeze(toRunResponse(run));
    finished.set(run, response);
  }
  return response;
}

export function toRunResponse(run: BundleRunRecord): BundleRunResponse {
  // Literal objects, not a spread of a shared base: V8 copies a spread source on its slow path here,
  // which made this projection the largest single cost of polling a run.
  const { jobId, status } = run;
  const createdAt = isoInstant(run.createdAt);
  switch (status) {
    case 'Queued':
      return { jobId, status, createdAt, error: null, startedAt: null, completedAt: null, result: null };
    case 'Running': {
      const waiting = run.parked?.verdict === undefined ? run.parked?.waiting : undefined;
      if (waiting === undefined) return { jobId, status, createdAt, error: null, startedAt: isoInstant(run.startedAt), completedAt: null, result: null };
      const { approvalId, toolCallId, tool, operation } = waiting;
      return {
        jobId,
        status,
        createdAt,
        error: null,
        startedAt: isoInstant(run.startedAt),
        completedAt: null,
        result: null,
        pendingApprovals: [{ approvalId, toolCallId, tool, operation, createdAt: isoInstant(waiting.createdAt), expiresAt: waiting.expiresAt === null ? null : isoInstant(waiting.expiresAt) }],
      };
    }
    case 'Succeeded':
      return {
        jobId,
        status,
        createdAt,
        error: null,
        startedAt: isoInstant(run.startedAt),
        completedAt: isoInstant(run.completedAt),
        result: { ...run.result },
        usage: { ...run.usage },
      };
    case 'Failed':
      return {
        jobId,
        status,
        createdAt,
        error: run.error,
        startedAt: run.startedAt === null ? null : isoInstant(run.startedAt),
        completedAt: isoInstant(run.completedAt),
        result: null,
      };
  }
}

function deepFreeze<T extends object>(value: T): T {
  for (const member of Object.values(value)) if (typeof member === 'object' && member !== null) deepFreeze(member as object);
  return Object.freeze(value);
}

/** Whether this is a finished run's projection: the same frozen object on every poll (runResponseOf). */
export function isFinishedRunResponse(response: BundleRunResponse): boolean {
  return response.status === 'Succeeded' || response.status === 'Failed';
}
