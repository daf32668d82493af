// `delegate_task`: runs a host agent as a sub-agent under the caller's own envelope. It is never
// offered on the invoke endpoint (isDirectlyInvocable false); the agent runtime, which owns host
// agents and the conversation loop, binds the runner when it starts.
import type { Tool, ToolCallContext, ToolDescriptor, ToolResult } from '../../tool.js';
import { toolFailure } from '../../tool.js';

export type DelegateRunner = (agent: string, task: string, context: ToolCallContext) => Promise<ToolResult>;

export interface DelegateTaskTool extends Tool {
  /** Called once by the agent runtime; until then every call reports that no runtime is bound. */
  bind(runner: DelegateRunner): void;
}

export const DELEGATE_UNAVAILABLE = 'Sub-agent delegation is unavailable: no agent runtime is running on this host.';

const descriptor: ToolDescriptor = {
  name: 'delegate_task',
  description: 'Hand a task to one of the host’s agents, run as a sub-agent under the same envelope, and return its answer.',
  operations: [
    {
      name: 'run',
      description: 'Run host agent `agent` on `task`; returns the sub-agent’s final response.',
      parameters: {
        type: 'object',
        additionalProperties: false,
        required: ['agent', 'task'],
        properties: {
          agent: { type: 'string', minLength: 1, maxLength: 200, description: 'Id of a host agent (Agents:DiscoveryPaths).' },
          task: { type: 'string', minLength: 1, maxLength: 32_768, description: 'What the sub-agent should do.' },
        },
      },
    },
  ],
  riskTier: 'High',
  isReadOnly: false,
  isConcurrencySafe: true,
  isDirectlyInvocable: false,
  reachesNetwork: false,
};

export function createDelegateTaskTool(): DelegateTaskTool {
  let runner: DelegateRunner | null = null;
  return {
    descriptor,
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
