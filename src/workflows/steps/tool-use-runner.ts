// ToolUse: one operation of one tool as one governed call (surface `workflow`), under the envelope
// captured when the run started. Not granted, refused by governance (anything below Autonomous), an
// undeclared operation or parameters that break its schema, or a failure the tool reports: the step
// fails. Output is the tool's output, parsed as JSON when it parses.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import { redactThenTruncate } from '../../platform/redaction/index.js';
import type { GovernedCallOutcome, GovernedCalls } from '../../tools/index.js';
import { renderValue } from '../definition/render-template.js';
import type { ToolUseConfiguration } from '../definition/workflow-definition.js';
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';
import { MAX_TOOL_ERROR_BYTES, stepOutputTooLarge, TOOL_DENIED, templateTooLarge } from './step-failures.js';
import type { StepLimits } from './step-limits.js';
import { templateScope } from './template-scope.js';

export interface ToolUseDependencies {
  readonly calls: GovernedCalls;
  readonly ownerId: string;
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
    const input = { operation: configuration.operation, parameters };
    return deps.calls
      .call({ surface: 'workflow', ownerId: deps.ownerId, envelope: deps.envelope, toolName: configuration.tool, input: () => input, signal: context.signal })
      .then((outcome) => stepOutcome(outcome, maxStepOutputBytes));
  };
}

const DENIED: StepOutcome = { ok: false, error: TOOL_DENIED };

function stepOutcome(outcome: GovernedCallOutcome, maxStepOutputBytes: number): StepOutcome {
  switch (outcome.status) {
    case 'denied':
      return DENIED;
    case 'refused':
      return outcome.refusal.kind === 'undeclared-operation'
        ? { ok: false, error: 'The tool does not declare this operation.' }
        : { ok: false, error: `The tool parameters are invalid: ${excerpt(outcome.refusal.message)}` };
    case 'failed':
      return { ok: false, error: `The tool reported a failure: ${excerpt(outcome.error)}` };
    case 'succeeded':
      // Measured before parsing, so an over-large output is never also held as a parsed copy.
      if (Buffer.byteLength(outcome.output, 'utf8') > maxStepOutputBytes) return { ok: false, error: stepOutputTooLarge(maxStepOutputBytes) };
      return { ok: true, output: parseOutput(outcome.output) };
  }
}
/** Redacted, at most MAX_TOOL_ERROR_BYTES, and marked when cut (validator messages name the caller's fields). */
function excerpt(text: string): string {
  const cut = redactThenTruncate(text, MAX_TOOL_ERROR_BYTES);
  return cut.truncated ? `${cut.text}…` : cut.text;
}

function parseOutput(output: string): unknown {
  try {
    return JSON.parse(output) as unknown;
  } catch {
    return output;
  }
}
