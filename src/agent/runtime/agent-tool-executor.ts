// The `executeTool` an agent conversation is given (bundle runs, delegated sub-agents, eval cases):
// every tool call the model asks for — a tool it was offered or not, arguments well-formed or not —
// is one governed call on the caller's surface, and its outcome is mapped to what the agent loop
// tells the model: denied (or rejected by a person, or expired undecided), refused (with a host-written
// reason the model can act on, never tool or exception text), failed (the detail goes to the log
// only), the tool's output, or — the call waits for a person — awaiting approval.
import type { ExecuteTool, ToolExecution } from '../loop/index.js';
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import { redactText } from '../../platform/redaction/index.js';
import type { GovernedCalls, GovernedSurface, Supervisor } from '../../tools/governed-call.js';
import type { ConversationScope } from '../../tools/tool.js';

export interface AgentToolExecutorOptions {
  readonly calls: GovernedCalls;
  readonly surface: Extract<GovernedSurface, 'bundle' | 'eval'>;
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  /** The calling conversation (what `delegate_task` needs to run a sub-agent under it). */
  readonly conversation?: ConversationScope;
  /** Where a person is asked for a call that needs approval (a bundle run that can wait), by the call's id. */
  readonly supervisorFor?: (toolCallId: string) => Supervisor;
  /** The bundle's AGENT.md `require-approval:`. */
  readonly requireApproval?: readonly string[] | 'all' | null;
  /** The run the calls belong to (policies' run counters). */
  readonly runId?: string;
  /** The bundle's AGENT.md id (policies read it). */
  readonly bundleId?: string;
  /** Told the name of every tool that ran and failed (an eval case is then errored). */
  readonly onFailed?: (toolName: string) => void;
  /** Told every call the model asks for, in the order they are made (an eval's matches-recording). */
  readonly onCalled?: (toolName: string, operation: string) => void;
  readonly log: { info(details: object, message: string): void };
}

export function agentToolExecutor(options: AgentToolExecutorOptions): ExecuteTool {
  const { calls, surface, ownerId, envelope, conversation, log } = options;
  return async (call, signal): Promise<ToolExecution> => {
    options.onCalled?.(call.name, call.operation);
    const input = { operation: call.operation, parameters: call.parameters };
    const outcome = await calls.call({
      surface,
      ownerId,
      envelope,
      toolName: call.name,
      input: () => input,
      signal,
      callId: call.toolCallId,
      ...(options.runId === undefined ? {} : { runId: options.runId }),
      ...(options.bundleId === undefined ? {} : { bundleId: options.bundleId }),
      ...(conversation === undefined ? {} : { conversation }),
      ...(options.supervisorFor === undefined ? {} : { supervisor: options.supervisorFor(call.toolCallId) }),
      ...(options.requireApproval === undefined ? {} : { requireApproval: options.requireApproval }),
    });
    const where = { surface, tool: call.name, operation: call.operation, toolCallId: call.toolCallId };
    switch (outcome.status) {
      case 'succeeded':
        return { status: 'succeeded', output: outcome.output };
      case 'denied':
        return { status: 'denied' };
      case 'rejected':
      case 'expired':
        return { status: 'denied', rejected: true };
      case 'parked':
        // The run stops here for a person's decision (the approval is stored); it is resumed with it.
        return { status: 'awaiting-approval', approvalId: outcome.approvalId };
      case 'refused': {
        const { refusal, tool } = outcome;
        const name = tool.descriptor.name;
        if (refusal.kind === 'undeclared-operation') {
          return { status: 'refused', reason: `${name} declares no such operation; "operation" must be one of: ${refusal.accepted.join(', ')}`, operations: refusal.accepted };
        }
        const reason = `the parameters of ${name}.${call.operation} are invalid: ${refusal.message}`;
        log.info({ ...where, reason: redactText(reason) }, 'tool call refused');
        return { status: 'refused', reason };
      }
      case 'failed':
        log.info({ ...where, error: redactText(outcome.error) }, 'tool call failed');
        options.onFailed?.(outcome.tool.descriptor.name);
        return { status: 'failed', error: outcome.error };
    }
  };
}
