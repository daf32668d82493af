// How an eval case runs a tool call, exactly as a bundle run does: the tool is looked up in the
// effective set (request ∩ the STARTING caller's grant), its parameters are checked against the
// operation's schema, and the one governor decides and runs it (surface `eval`). A tool that ran and
// failed is reported to `onToolFailure` (the case is then errored); denials and refused arguments are
// the model's to handle and are not.
import type { ExecuteTool } from '../../agent/index.js';
import type { EffectiveEnvelope } from '../../platform/envelope/index.js';
import { checkToolCall, type ParameterValidator, type ToolGovernor, type ToolRegistry } from '../../tools/index.js';

export interface ToolPlane {
  readonly registry: ToolRegistry;
  readonly validator: ParameterValidator;
  readonly governor: ToolGovernor;
}

export function createToolExecutor(
  plane: ToolPlane,
  envelope: EffectiveEnvelope,
  ownerId: string,
  onToolFailure: (toolName: string) => void,
): ExecuteTool {
  return async (call, signal) => {
    const tool = await plane.registry.findGranted(envelope, call.name, signal);
    if (tool === undefined) return { status: 'denied' };
    const check = checkToolCall(tool, call.operation, call.parameters, plane.validator);
    if (!check.ok) return { status: 'refused', reason: check.reason };
    const { operation } = check;
    const outcome = await plane.governor.execute({
      ownerId,
      envelope,
      tool,
      operation: operation.name,
      parameters: call.parameters,
      signal,
      surface: 'eval',
    });
    if (outcome.status === 'denied') return { status: 'denied' };
    if (outcome.result.ok) return { status: 'succeeded', output: outcome.result.output };
    onToolFailure(tool.descriptor.name);
    return { status: 'failed', error: outcome.result.error };
  };
}
