// `delegate_task`: runs a host agent as a sub-agent under the caller's own envelope. It is never
// offered on the invoke endpoint (isDirectlyInvocable false); the agent runtime, which owns host
// agents and the conversation loop, binds the runner when it starts.
import type { Tool, ToolCallContext, ToolResult } from '../../tool.js';
import { toolFailure } from '../../tool.js';
import { delegateTaskDescriptor } from './delegate-task-descriptor.js';

export type DelegateRunner = (agent: string, task: string, context: ToolCallContext) => Promise<ToolResult>;

export interface DelegateTaskTool extends Tool {
  /** Called once by the agent runtime; until then every call reports that no runtime is bound. */
  bind(runner: DelegateRunner): void;
}

export const DELEGATE_UNAVAILABLE = 'Sub-agent delegation is unavailable: no agent runtime is running on this host.';

export function createDelegateTaskTool(): DelegateTaskTool {
  let runner: DelegateRunner | null = null;
  return {
    descriptor: delegateTaskDescriptor,
    bind(next) {
      runner = next;
    },
    async invoke(operation, parameters, context) {
      if (operation !== 'run') return toolFailure(`Unknown operation '${operation}'.`);
      if (runner === null) return toolFailure(DELEGATE_UNAVAILABLE);
      return runner(String(parameters.agent), String(parameters.task), context);
    },
  };
}
