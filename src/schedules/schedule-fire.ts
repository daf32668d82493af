// One fire of a schedule (DESIGN.md §14): the claim on (schedule, scheduled instant) that makes it
// happen once across instances, then what came of it. A fire is `Claimed` from the claim until its run
// was started or refused; one still `Claimed` well after it was claimed belongs to an instance that
// stopped in between — the run was never started (fires are at most once), and it reads as Failed.
import { isoInstant } from '../platform/clock/index.js';
import type { FireResource } from './schemas.js';

export type FireOutcome = 'Started' | 'Skipped' | 'Failed';
export type FireState = 'Claimed' | FireOutcome;

export interface FireData {
  readonly scheduleId: string;
  readonly scheduledFor: number;
  readonly firedAt: number;
  readonly state: FireState;
  readonly jobId: string | null;
  /** Why a fire was Skipped or Failed, caller-safe. */
  readonly reason: string | null;
}

/** How long a fire may stay Claimed before it reads as Failed: starting a run is an admission, not its execution. */
export const CLAIM_STALE_MS = 60_000;
export const STOPPED_BEFORE_START = 'The instance firing this schedule stopped before the run started.';

/** The fire as the caller sees it; undefined while a fresh claim is still being started. */
export function toFireResource(fire: FireData, now: number): FireResource | undefined {
  const base = { scheduledFor: isoInstant(fire.scheduledFor), firedAt: isoInstant(fire.firedAt) };
  if (fire.state === 'Claimed') return now - fire.firedAt < CLAIM_STALE_MS ? undefined : { ...base, outcome: 'Failed', reason: STOPPED_BEFORE_START };
  return {
    ...base,
    ...(fire.jobId === null ? {} : { jobId: fire.jobId }),
    outcome: fire.state,
    ...(fire.reason === null ? {} : { reason: fire.reason }),
  };
}
