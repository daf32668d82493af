// ToolUse: one operation of one tool through the one governor, under the envelope captured when the
// run started. Not granted, refused by governance (anything below Autonomous) or reported as failed
// by the tool: the step fails. Output is the tool's output, parsed as JSON when it parses.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import { redactThenTruncate } from '../../platform/redaction/index.js';
import type { ParameterValidator, Tool, ToolGovernor, ToolRegistry } from '../../tools/index.js';
import { renderValue } from '../definition/render-template.js';
import type { ToolUseConfiguration } from '../definition/workflow-definition.js';
import type { StepContext, StepOutcome, StepRunner } from '../engine/step-runner.js';
import { MAX_TOOL_ERROR_BYTES, stepOutputTooLarge, TOOL_DENIED, templateTooLarge } from './step-failures.js';
import type { StepLimits } from './step-limits.js';
import { templateScope } from './template-scope.js';

export interface ToolUseDependencies {
  readonly registry: ToolRegistry;
  readonly governor: ToolGovernor;
  readonly validator: ParameterValidator;
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly limits: Pick<StepLimits, 'maxRenderedTemplateBytes' | 'maxStepOutputBytes'>;
}

export function createToolUseRunner(deps: ToolUseDependencies): StepRunner {
  // Promise chains, not an async function: a built-in tool is found and called without extra turns
  // (a workflow step may be nothing but one clock call); MCP tools may need their server first.
  return (context) => {
    const configuration = context.step.configuration as ToolUseConfiguration;
    const builtin = deps.registry.grantedBuiltin(deps.envelope, configuration.tool);
    if (builtin !== undefined) return runTool(deps, builtin, configuration, context);
    return deps.registry
      .findGranted(deps.envelope, configuration.tool, context.signal)
      .then((tool) => (tool === undefined ? DENIED : runTool(deps, tool, configuration, context)));
  };
}

const DENIED: StepOutcome = { ok: false, error: TOOL_DENIED };

function runTool(deps: ToolUseDependencies, tool: Tool, configuration: ToolUseConfiguration, context: StepContext): Promise<StepOutcome> {
  const operation = tool.descriptor.operations.find((op) => op.name === configuration.operation);
  if (operation === undefined) return Promise.resolve({ ok: false, error: 'The tool does not declare this operation.' });
  const { maxRenderedTemplateBytes, maxStepOutputBytes } = deps.limits;
  const parameters = renderValue(configuration.parameters, templateScope(context), maxRenderedTemplateBytes) as Record<string, unknown> | undefined;
  if (parameters === undefined) return Promise.resolve({ ok: false, error: templateTooLarge(maxRenderedTemplateBytes) });
  const check = deps.validator.check(operation, parameters);
  if (!check.ok) return Promise.resolve({ ok: false, error: `The tool parameters are invalid: ${excerpt(check.message)}` });
  return deps.governor
    .execute({ ownerId: deps.ownerId, envelope: deps.envelope, tool, operation: operation.name, parameters, signal: context.signal, surface: 'workflow' })
    .then((outcome): StepOutcome => {
      if (outcome.status === 'denied') return DENIED;
      if (!outcome.result.ok) return { ok: false, error: `The tool reported a failure: ${excerpt(outcome.result.error)}` };
      // Measured before parsing, so an over-large output is never also held as a parsed copy.
      if (Buffer.byteLength(outcome.result.output, 'utf8') > maxStepOutputBytes) return { ok: false, error: stepOutputTooLarge(maxStepOutputBytes) };
      return { ok: true, output: parseOutput(outcome.result.output) };
    });
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
