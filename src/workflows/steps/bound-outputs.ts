// Wraps one run's step runners so every output a step keeps is measured (as JSON, without
// serializing it) against the per-step bound and the run's running total. An output past either
// bound is not kept: the step fails with a fixed text, so a chain of steps whose templates repeat
// earlier outputs cannot grow the run's record (and its poll body) without limit.
import { jsonSize } from '../definition/json-size.js';
import { mapStepRunners, type StepOutcome, type StepRunners } from '../engine/step-runner.js';
import { runOutputTooLarge, stepOutputTooLarge } from './step-failures.js';
import type { StepLimits } from './step-limits.js';

export function boundOutputs(runners: StepRunners, limits: Pick<StepLimits, 'maxStepOutputBytes' | 'maxRunOutputBytes'>): StepRunners {
  const { maxStepOutputBytes, maxRunOutputBytes } = limits;
  let kept = 0;
  const check = (outcome: StepOutcome): StepOutcome => {
    if (outcome.output === undefined) return outcome;
    const size = sizeOf(outcome.output, maxStepOutputBytes);
    if (size > maxStepOutputBytes) return { ok: false, error: stepOutputTooLarge(maxStepOutputBytes) };
    if (kept + size > maxRunOutputBytes) return { ok: false, error: runOutputTooLarge(maxRunOutputBytes) };
    kept += size;
    return outcome;
  };
  // `.then`, not another async layer: this wraps every step of every run.
  return mapStepRunners(runners, (runner) => (context) => runner(context).then(check));
}

/** Exact sizes of frozen values measured once (a tool's shared answer is kept by step after step); a size past a bound is not kept. */
const measured = new WeakMap<object, number>();

function sizeOf(output: unknown, limit: number): number {
  if (typeof output !== 'object' || output === null || !Object.isFrozen(output)) return jsonSize(output, limit);
  const known = measured.get(output);
  if (known !== undefined) return known;
  const size = jsonSize(output, limit);
  if (size <= limit) measured.set(output, size);
  return size;
}
