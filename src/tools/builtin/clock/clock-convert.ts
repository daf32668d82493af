// The clock tool's `convert` operation: an instant, or a wall time read in `from`, shown in `to`. It does
// not do calendar arithmetic (adding days, business hours).
import { toolFailure, toolSuccess, type ToolResult } from '../../tool.js';
import { describeInstant } from './describe-instant.js';
import { parseIsoTime } from './parse-iso-time.js';
import { resolveTimeZone } from './resolve-time-zone.js';
import { Temporal } from '../../../platform/vendor/temporal.js';

export function clockConvert(parameters: Readonly<Record<string, unknown>>): ToolResult {
  const { time, to, from } = parameters;
  if (typeof time !== 'string' || typeof to !== 'string') return toolFailure('time and to must be strings');
  if (from !== undefined && typeof from !== 'string') return toolFailure('from must be a string');
  const target = resolveTimeZone(to);
  if (target === undefined) return toolFailure(`unknown time zone ${JSON.stringify(to)}`);
  const source = from === undefined ? undefined : resolveTimeZone(from);
  if (from !== undefined && source === undefined) return toolFailure(`unknown time zone ${JSON.stringify(from)}`);

  const parsed = parseIsoTime(time);
  if (parsed === undefined) {
    return toolFailure(`time ${JSON.stringify(time)} is not an ISO 8601 date-time (YYYY-MM-DDTHH:mm:ss[Z|±HH:MM])`);
  }
  let epochMs: number;
  if (parsed.kind === 'instant') {
    epochMs = parsed.epochMs;
  } else if (source === undefined) {
    return toolFailure('time has no offset, so "from" (the time zone it is a wall time in) is required');
  } else {
    // Temporal's 'compatible' reading: a time skipped by a spring-forward gap moves forward by the gap,
    // a time repeated by a fall-back takes the earlier instant.
    const { year, month, day, hour, minute, second, millisecond } = parsed.wall;
    const wall = new Temporal.PlainDateTime(year, month, day, hour, minute, second, millisecond);
    epochMs = wall.toZonedDateTime(source, { disambiguation: 'compatible' }).epochMilliseconds;
  }
  const { iso, local, offset } = describeInstant(epochMs, target);
  return toolSuccess({ iso, timeZone: target, local, offset });
}
