// ToolUse: one operation of one tool as one governed call (surface `workflow`), under the envelope
// captured when the run started. Not granted, refused by governance, an undeclared operation or
// parameters that break its schema, or a failure the tool reports: the step fails. A call a person must
// approve (DESIGN.md §13: Supervised with approvals on) parks the step like a gate — the run is
// Blocked, the step Waiting — until it is decided: approve runs the tool, reject or expiry fails the
// step with `Tool call rejected by an approver.`. Output is the tool's output, parsed as JSON when it parses.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import { redactThenTruncate, textCarriesNoSecret } from '../../platform/redaction/index.js';
import { approvalToolCall, TOOL_CALL_REJECTED, type ApprovalAsk, type ApprovalVerdict, type GovernedCallOutcome, type GovernedCallRequest, type GovernedCalls, type Supervisor, type ToolInput } from '../../tools/index.js';
import { renderValue } from '../definition/render-template.js';
import type { ToolUseConfiguration } from '../definition/workflow-definition.js';
import type { StepContext, StepOutcome, StepRunner } from '../engine/step-runner.js';
import { MAX_TOOL_ERROR_BYTES, stepOutputTooLarge, TOOL_DENIED, templateTooLarge } from './step-failures.js';
import type { StepLimits } from './step-limits.js';
import { templateScope } from './template-scope.js';

export interface ToolUseDependencies {
  readonly calls: GovernedCalls;
  readonly ownerId: string;
  /** The run's job id (its policies' run counters). */
  readonly runId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly limits: Pick<StepLimits, 'maxRenderedTemplateBytes' | 'maxStepOutputBytes'>;
}

export function createToolUseRunner(deps: ToolUseDependencies): StepRunner {
  const { maxRenderedTemplateBytes, maxStepOutputBytes } = deps.limits;
  // Promise chains, not an async function: a built-in tool is found and called without extra turns
  // (a workflow step may be nothing but one clock call).
  return (context) => {
    const configuration = context.step.configuration as ToolUseConfiguration;
    const parameters = renderValue(configuration.parameters, templateScope(context), maxRenderedTemplateBytes) as Record<string, unknown> | undefined;
    if (parameters === undefined) return Promise.resolve({ ok: false, error: templateTooLarge(maxRenderedTemplateBytes) });
    return deps.calls
      .call(new StepToolCall(deps, configuration, parameters, context))
      .then((outcome) => stepOutcome(outcome, maxStepOutputBytes));
  };
}

/** The governed call a step makes: one object a step, its own supervisor (a person decides through the step's approval). */
class StepToolCall implements GovernedCallRequest, Supervisor {
  readonly surface = 'workflow';
  readonly ownerId: string;
  readonly runId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly toolName: string;
  readonly signal: AbortSignal;
  readonly supervisor: Supervisor = this;
  readonly #input: ToolInput;
  readonly #context: StepContext;

  constructor(deps: ToolUseDependencies, configuration: ToolUseConfiguration, parameters: Record<string, unknown>, context: StepContext) {
    this.ownerId = deps.ownerId;
    this.runId = deps.runId;
    this.envelope = deps.envelope;
    this.toolName = configuration.tool;
    this.signal = context.signal;
    this.#input = { operation: configuration.operation, parameters };
    this.#context = context;
  }

  input(): ToolInput {
    return this.#input;
  }

  async ask(ask: ApprovalAsk): Promise<ApprovalVerdict> {
    const decision = await this.#context.awaitApproval({
      message: `The step '${this.#context.step.path}' asks to call ${ask.tool.descriptor.name} (${ask.operation}).`,
      timeoutMs: undefined,
      toolCall: approvalToolCall(ask, MAX_ARGUMENTS_BYTES),
    });
    return decision.decision === 'Approve' ? { approved: true, by: decision.decidedBy ?? 'an approver' } : { approved: false, expired: decision.timedOut };
  }
}

/** The largest argument text an approval shows; larger is withheld (null). */
const MAX_ARGUMENTS_BYTES = 65_536;

const DENIED: StepOutcome = { ok: false, error: TOOL_DENIED };
const REJECTED: StepOutcome = { ok: false, error: TOOL_CALL_REJECTED };

function stepOutcome(outcome: GovernedCallOutcome, maxStepOutputBytes: number): StepOutcome {
  switch (outcome.status) {
    case 'denied':
      return DENIED;
    case 'rejected':
    case 'expired':
      return REJECTED;
    case 'parked':
      // A step's supervisor waits in place for the decision (the run is Blocked); it never parks the call.
      throw new Error('a workflow ToolUse call was parked');
    case 'refused':
      return outcome.refusal.kind === 'undeclared-operation'
        ? { ok: false, error: 'The tool does not declare this operation.' }
        : { ok: false, error: `The tool parameters are invalid: ${excerpt(outcome.refusal.message)}` };
    case 'failed':
      return { ok: false, error: `The tool reported a failure: ${excerpt(outcome.error)}` };
    case 'succeeded':
      // Measured before parsing, so an over-large output is never also held as a parsed copy. A text
      // of n UTF-16 units has at most 3n UTF-8 bytes: a short one needs no count.
      if (outcome.output.length * 3 > maxStepOutputBytes && Buffer.byteLength(outcome.output, 'utf8') > maxStepOutputBytes) return { ok: false, error: stepOutputTooLarge(maxStepOutputBytes) };
      return parsedOutcome(outcome.output, outcome.value);
  }
}
/** Redacted, at most MAX_TOOL_ERROR_BYTES, and marked when cut (validator messages name the caller's fields). */
function excerpt(text: string): string {
  const cut = redactThenTruncate(text, MAX_TOOL_ERROR_BYTES);
  return cut.truncated ? `${cut.text}…` : cut.text;
}

/**
 * The output as JSON when it parses (the tool's own value when it gave one: the text's, frozen);
 * decided clean on its text when it can be (most are).
 */
function parsedOutcome(text: string, value: unknown): StepOutcome {
  const output = value === undefined ? parseOutput(text) : value;
  return { ok: true, output, redacted: carriesNoSecret(text) ? output : undefined };
}

/** The longest text whose verdict is kept for the next step: a tool answering the same text again is not scanned again. */
const MAX_REMEMBERED_TEXT = 4096;
let lastText = '';
let lastVerdict = false;

function carriesNoSecret(text: string): boolean {
  if (text === lastText) return lastVerdict;
  const verdict = textCarriesNoSecret(text);
  if (text.length <= MAX_REMEMBERED_TEXT) {
    lastText = text;
    lastVerdict = verdict;
  }
  return verdict;
}

function parseOutput(output: string): unknown {
  try {
    return JSON.parse(output) as unknown;
  } catch {
    return output;
  }
}
