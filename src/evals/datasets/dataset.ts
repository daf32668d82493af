// A parsed, validated dataset (DESIGN.md §7): its subject and its cases with compiled assertions.
// Produced only by parseDataset; everything downstream trusts its shape.
import type { Assertion } from '../assertions/assertion.js';
import type { Recording } from '../recording/recording.js';

/** Who answers the cases: a host agent, or an inline system prompt with requested tools. */
export type EvalSubject =
  | { readonly kind: 'agent'; readonly agent: string }
  | { readonly kind: 'inline'; readonly systemPrompt: string; readonly tools: readonly string[] };

export interface EvalCase {
  readonly id: string;
  readonly tags: readonly string[];
  /** One turn each, in order (`input` is one message). */
  readonly messages: readonly string[];
  readonly assertions: readonly Assertion[];
  /** Per-case deadline of one execution, assertions and grading included. */
  readonly timeoutMs: number;
  /** A case made from a run (DESIGN §19): the bundle's AGENT.md id, and what the run did. */
  readonly agent?: string;
  readonly recording?: Recording;
}

export interface Dataset {
  readonly name: string;
  /** File name inside its root (never the host path): what validation errors and reports name. */
  readonly fileName: string;
  readonly description: string | null;
  readonly subject: EvalSubject;
  readonly cases: readonly EvalCase[];
}
