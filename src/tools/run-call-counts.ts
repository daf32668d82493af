// The run counters a policy reads (DESIGN.md §18 `context.run`): the tool calls granted so far in a run
// before this one, those of this tool, and the run's spend. Kept in the storage's atomic counters
// beside the spend totals (the run's spend is its `run:<jobId>` total there), so they hold across a
// park, a takeover and every instance; read and counted only while a policy layer is configured.
import { RUN_TOTAL_KEPT_MS } from '../platform/spend/index.js';
import type { SpendCounters } from '../platform/storage/index.js';

export interface RunCounters {
  readonly toolCalls: number;
  readonly callsOfThisTool: number;
  readonly spentMicroUsd: number;
}

/** A call outside any run (direct invocation, the MCP gateway): every counter is 0. */
export const OUTSIDE_RUNS: RunCounters = Object.freeze({ toolCalls: 0, callsOfThisTool: 0, spentMicroUsd: 0 });

export class RunCallCounts {
  readonly #counters: SpendCounters;
  readonly #now: () => number;

  constructor(counters: SpendCounters, now: () => number) {
    this.#counters = counters;
    this.#now = now;
  }

  /** The run's counters before a call of `tool` (one read of three totals). */
  async read(ownerId: string, runId: string, tool: string): Promise<RunCounters> {
    const [spentNanoUsd = 0, toolCalls = 0, callsOfThisTool = 0] = await this.#counters.read(ownerId, [`run:${runId}`, callsOf(runId), callsOf(runId, tool)]);
    return { toolCalls, callsOfThisTool, spentMicroUsd: Math.floor(spentNanoUsd / 1_000) };
  }

  /** Counts a granted call of `tool` in the run (both totals at once). */
  async granted(ownerId: string, runId: string, tool: string): Promise<void> {
    const expiresAt = this.#now() + RUN_TOTAL_KEPT_MS;
    await this.#counters.add(ownerId, [{ period: callsOf(runId), expiresAt }, { period: callsOf(runId, tool), expiresAt }], 1);
  }
}

function callsOf(runId: string, tool?: string): string {
  return tool === undefined ? `calls:${runId}` : `calls:${runId}:${tool}`;
}
