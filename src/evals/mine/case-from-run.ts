// The case a finished bundle run of the caller becomes (DESIGN §19 "A run becomes a case", decision
// 4001): `messages` are the user messages its turns received, `agent` the bundle's AGENT.md id, and
// `recording` what its frames show (record-from-frames.ts); beside them the id (default
// `run-<jobId>`), tags and assert the caller gave. The result is the case object the new version
// stores, exactly as a PUT would have sent it: it is validated with the whole dataset by the dataset
// readers, not here. Everything comes from storage, so any instance answers.
import { RUN_NOT_FOUND_DETAIL, type FinishedBundleRuns } from '../../bundles/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import { ProblemError } from '../../platform/problems/index.js';
import { recordFromFrames } from '../recording/record-from-frames.js';
import { RUN_EMPTY_DETAIL, RUN_UNKEPT_DETAIL, RUN_WITHHELD_DETAIL, runNotFinished, runNotRecordable } from './problems.js';

/** The run, named as its routes name it: the handle it was started on and its job id. */
export interface RunRef {
  readonly handle: string;
  readonly jobId: string;
}

/** What the caller adds to the case; each as a case field is (null: absent), checked by the dataset readers. */
export interface CaseFields {
  readonly id?: unknown;
  readonly tags?: unknown;
  readonly assert?: unknown;
}

/** Unknown or foreign → 404 as the bundle routes say it; still live → 409; nothing (complete) to record → 422. */
export async function caseFromRun(runs: FinishedBundleRuns, owner: Owner, from: RunRef, fields: CaseFields): Promise<Record<string, unknown>> {
  const found = await runs.find(owner, from.handle, from.jobId);
  if (found.found === 'unknown') throw new ProblemError('not-found', RUN_NOT_FOUND_DETAIL);
  if (found.found === 'live') throw runNotFinished();
  const { run } = found;
  if (run.agent === undefined || run.userMessages === undefined) throw runNotRecordable(RUN_UNKEPT_DETAIL);
  const recorded = await recordFromFrames(run.frames());
  if (recorded.outcome === 'withheld') throw runNotRecordable(RUN_WITHHELD_DETAIL);
  if (recorded.outcome === 'empty' || run.userMessages.length === 0) throw runNotRecordable(RUN_EMPTY_DETAIL);
  return {
    id: fields.id ?? `run-${run.jobId}`,
    ...(fields.tags === undefined || fields.tags === null ? {} : { tags: fields.tags }),
    messages: [...run.userMessages],
    ...(fields.assert === undefined || fields.assert === null ? {} : { assert: fields.assert }),
    agent: run.agent,
    recording: recorded.recording,
  };
}
