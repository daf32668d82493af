// The clock tool's `now` operation: the injected clock's time described in one zone. It never reads the
// wall clock itself. Its answer is a function of the millisecond and the zone, so the tool keeps its
// last answer (`LastAnswer`): a call in the same millisecond for the same zone gets that text again
// instead of formatting it anew (an ISO string and the JSON text cost about 2.5 µs here; a chain of
// clock steps asks dozens of times a millisecond). The answer carries its value too (frozen), so a
// workflow step keeps it without parsing the text.
import type { Clock } from '../../../platform/clock/index.js';
import { toolFailure, type ToolResult } from '../../tool.js';
import { describeInstant } from './describe-instant.js';
import { resolveTimeZone } from './resolve-time-zone.js';

/** One clock tool's last `now` answer. */
export interface LastAnswer {
  epochMs: number;
  timeZone: string;
  result: ToolResult | undefined;
}

export function clockNow(clock: Clock, parameters: Readonly<Record<string, unknown>>, last?: LastAnswer): ToolResult {
  const requested = parameters['timeZone'] ?? 'UTC';
  if (typeof requested !== 'string') return toolFailure('timeZone must be a string');
  const timeZone = resolveTimeZone(requested);
  if (timeZone === undefined) return toolFailure(`unknown time zone ${JSON.stringify(requested)}`);
  const epochMs = clock.now();
  if (last?.result !== undefined && last.epochMs === epochMs && last.timeZone === timeZone) return last.result;
  const { iso, local } = describeInstant(epochMs, timeZone);
  // Strings and a whole number of milliseconds: the text parses back to exactly this value.
  const value = Object.freeze({ iso, epochMs, timeZone, local });
  const result: ToolResult = Object.freeze({ ok: true, output: JSON.stringify(value), value });
  if (last !== undefined) {
    last.epochMs = epochMs;
    last.timeZone = timeZone;
    last.result = result;
  }
  return result;
}
