// The clock tool's `now` operation: the injected clock's time described in one zone. It never reads the
// wall clock itself.
import type { Clock } from '../../../platform/clock/index.js';
import { toolFailure, toolSuccess, type ToolResult } from '../../tool.js';
import { describeInstant } from './describe-instant.js';
import { resolveTimeZone } from './resolve-time-zone.js';

export function clockNow(clock: Clock, parameters: Readonly<Record<string, unknown>>): ToolResult {
  const requested = parameters['timeZone'] ?? 'UTC';
  if (typeof requested !== 'string') return toolFailure('timeZone must be a string');
  const timeZone = resolveTimeZone(requested);
  if (timeZone === undefined) return toolFailure(`unknown time zone ${JSON.stringify(requested)}`);
  const epochMs = clock.now();
  const { iso, local } = describeInstant(epochMs, timeZone);
  return toolSuccess({ iso, epochMs, timeZone, local });
}
