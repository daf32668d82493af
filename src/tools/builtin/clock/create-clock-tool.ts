// The built-in `clock` tool: `now` from an injected Clock and `convert` between IANA zones via Intl. It
// keeps no state and needs no close().
import { systemClock, type Clock } from '../../../platform/clock/index.js';
import { toolFailure, type Tool, type ToolResult } from '../../tool.js';
import { clockConvert } from './clock-convert.js';
import { clockDescriptor } from './clock-descriptor.js';
import { clockNow, type LastAnswer } from './clock-now.js';

export interface ClockToolOptions {
  /** Source of "now"; the system clock unless a test or engine injects its own. */
  readonly clock?: Clock;
}

export function createClockTool(options: ClockToolOptions = {}): Tool {
  const clock = options.clock ?? systemClock;
  const last: LastAnswer = { epochMs: Number.NaN, timeZone: '', result: undefined };
  const run = (operation: string, parameters: Readonly<Record<string, unknown>>): ToolResult => {
    switch (operation) {
      case 'now':
        return clockNow(clock, parameters, last);
      case 'convert':
        return clockConvert(parameters);
      default:
        return toolFailure(`unknown operation ${JSON.stringify(operation)}; clock accepts now, convert`);
    }
  };
  return {
    descriptor: clockDescriptor,
    // Synchronous work, answered as a settled promise (no extra turn: a workflow step may be one clock
    // call). It never reads the signal: it cannot be interrupted, and the governed call does not start a
    // call that is already cancelled (a direct invocation then never builds its AbortSignal).
    invoke: (operation, parameters) => Promise.resolve(run(operation, parameters)),
    invokeNow: run,
  };
}
