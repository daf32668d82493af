// The assertion types of DESIGN.md §7, as parsed from a dataset: plain JSON data (a run's submission
// is stored, and read back on whichever instance executes it), compiled where they are checked.
// `severity: warn` turns a failure into a warning.
import type { Recording } from '../recording/recording.js';

export const ASSERTION_TYPES = [
  'equals',
  'contains',
  'icontains',
  'not-contains',
  'regex',
  'is-json',
  'json-schema',
  'tool-called',
  'max-latency-ms',
  'max-cost-usd',
  'llm-rubric',
  'matches-recording',
] as const;

export type AssertionType = (typeof ASSERTION_TYPES)[number];
export type Severity = 'error' | 'warn';

export type Assertion = { readonly severity: Severity } & (
  | { readonly type: 'equals'; readonly value: unknown }
  | { readonly type: 'contains' | 'icontains' | 'not-contains'; readonly value: string }
  | { readonly type: 'regex'; readonly value: string; readonly flags: string }
  | { readonly type: 'is-json' }
  | { readonly type: 'json-schema'; readonly schema: unknown }
  | { readonly type: 'tool-called'; readonly value: string }
  | { readonly type: 'max-latency-ms' | 'max-cost-usd'; readonly value: number }
  | { readonly type: 'llm-rubric'; readonly value: string }
  /** DESIGN §19: the same tool calls as the case's recording (tool and operation, in order) and, when the model was replayed, the same final answer. */
  | { readonly type: 'matches-recording' }
);

/** What one case execution produced, as the assertions see it. */
export interface Observation {
  /** The final response of the last turn (redacted by the agent runtime). */
  readonly output: string;
  /** Catalog names of every tool the model asked for, lower-cased. */
  readonly toolsCalled: ReadonlySet<string>;
  readonly latencyMs: number;
  /** Dollar cost of the subject's conversation (grading excluded). */
  readonly costUsd: number;
  /** Every tool call the model asked for, in order (matches-recording). */
  readonly toolCalls: readonly { readonly tool: string; readonly operation: string }[];
  /** The case's recording, and whether the model's answers came from it (`replay: "all"`). */
  readonly recording?: { readonly steps: Recording['steps']; readonly modelReplayed: boolean };
}

export type AssertionVerdict = { readonly passed: true; readonly reason?: string } | { readonly passed: false; readonly reason: string };
