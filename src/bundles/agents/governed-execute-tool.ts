// The executeTool the agent loop is given for one conversation: the tool must be in the effective set,
// its parameters must pass the operation's schema (else `refused` with a host-written reason the model
// is told, nothing runs), then the one governor decides and runs it (`denied` is answered as DESIGN.md
// §5 says). Details of a tool that ran and failed go to the log only.
import type { ExecuteTool, ToolExecution } from '../../agent/index.js';
import { redactText } from '../../platform/redaction/index.js';
import { checkToolCall, type ParameterValidator, type Tool, type ToolGovernor } from '../../tools/index.js';
import type { DelegationScope, DelegationScopes } from './delegation-scopes.js';

export interface GovernedExecuteToolOptions {
  /** The effective tool set, exactly as offered to the model. */
  readonly tools: readonly Tool[];
  readonly scope: DelegationScope;
  readonly scopes: DelegationScopes;
  readonly governor: ToolGovernor;
  readonly validator: ParameterValidator;
  readonly log: { info(details: object, message: string): void };
}

export function governedExecuteTool(options: GovernedExecuteToolOptions): ExecuteTool {
  const { scope, scopes, governor, validator, log } = options;
  const byName = new Map(options.tools.map((tool) => [tool.descriptor.name, tool]));
  const failed = (details: object, error: string): ToolExecution => {
    log.info({ ...details, error: redactText(error) }, 'bundle tool call failed');
    return { status: 'failed', error };
  };

  return async (call, signal) => {
    const tool = byName.get(call.name);
    if (tool === undefined) return { status: 'denied' };
    const where = { tool: call.name, operation: call.operation, toolCallId: call.toolCallId };
    const check = checkToolCall(tool, call.operation, call.parameters, validator);
    if (!check.ok) {
      log.info({ ...where, reason: redactText(check.reason) }, 'bundle tool call refused');
      return { status: 'refused', reason: check.reason };
    }
    const { operation } = check;
    // A signal of its own, so a delegate_task call can find this run's scope through it.
    const controller = new AbortController();
    const forward = (): void => controller.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    scopes.bind(controller.signal, scope);
    try {
      const outcome = await governor.execute({
        ownerId: scope.ownerId,
        envelope: scope.envelope,
        tool,
        operation: operation.name,
        parameters: call.parameters,
        signal: controller.signal,
        surface: 'bundle',
        callId: call.toolCallId,
      });
      if (outcome.status === 'denied') return { status: 'denied' };
      if (!outcome.result.ok) return failed(where, outcome.result.error);
      return { status: 'succeeded', output: outcome.result.output };
    } finally {
      signal.removeEventListener('abort', forward);
    }
  };
}
