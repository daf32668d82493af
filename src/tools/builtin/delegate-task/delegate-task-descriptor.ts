// The delegate_task tool's catalog descriptor: flags per DESIGN §4 and the `run` parameters schema.
// It holds no behaviour, so the catalog's schema can be read without building the tool.
import type { ToolDescriptor } from '../../tool.js';

export const delegateTaskDescriptor: ToolDescriptor = {
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
