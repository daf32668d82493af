// Builds the host's built-in tools from configuration. The UI-surface tools (render_*,
// dashboard_control) are deliberately absent: this host cannot construct them.
import type { AppConfig } from '../../platform/config/types.js';
import type { Clock } from '../../platform/clock/index.js';
import type { Storage } from '../../platform/storage/index.js';
import type { Tool } from '../tool.js';
import { createClockTool } from './clock/index.js';
import { createCalculatorTool } from './calculator/index.js';
import { createJsonTool } from './json/index.js';
import { createTextTool } from './text/index.js';
import { createKnowledgeIndexes, createKnowledgeTool, type KnowledgeIndexes, type KnowledgeLog } from './knowledge/index.js';
import { createMemoryTool } from './memory/index.js';
import { createHttpFetchTool } from './http-fetch/index.js';
import { createDelegateTaskTool, type DelegateTaskTool } from './delegate-task/index.js';

export interface BuiltinTools {
  readonly tools: readonly Tool[];
  readonly knowledge: KnowledgeIndexes;
  readonly delegateTask: DelegateTaskTool;
  /** Drops expired `memory` entries (the host's sweeper calls it). */
  sweepMemory(): Promise<void>;
}

export async function createBuiltinTools(config: AppConfig, deps: { clock: Clock; log: KnowledgeLog; storage: Storage }): Promise<BuiltinTools> {
  const knowledge = await createKnowledgeIndexes({ indexes: config.retrieval.indexes, log: deps.log });
  const delegateTask = createDelegateTaskTool();
  const memory = createMemoryTool({ clock: deps.clock, storage: deps.storage, ...config.tools.memory });
  const tools: Tool[] = [
    createClockTool({ clock: deps.clock }),
    createCalculatorTool(),
    createJsonTool(),
    createTextTool(),
    createKnowledgeTool(knowledge),
    memory.tool,
    createHttpFetchTool({
      allowedHosts: config.tools.httpFetch.allowedHosts,
      maxResponseBytes: config.tools.httpFetch.maxResponseBytes,
      timeoutSeconds: config.tools.httpFetch.timeoutSeconds,
    }),
    delegateTask,
  ];
  return { tools, knowledge, delegateTask, sweepMemory: () => memory.store.sweep() };
}

export { builtinToolDescriptors } from './builtin-descriptors.js';
export { DELEGATE_UNAVAILABLE, type DelegateRunner, type DelegateTaskTool } from './delegate-task/index.js';
export type { KnowledgeHit, KnowledgeIndexes } from './knowledge/index.js';
