// What the composition root hands every feature's `register…` function: configuration, the shared
// infrastructure and the tool plane. Features take what they need from it and nothing else.
import type { AppConfig } from './platform/config/types.js';
import type { Clock, IdGenerator } from './platform/clock/index.js';
import type { Logger } from './platform/log/index.js';
import type { ChatModel } from './models/index.js';
import type { ParameterValidator, ToolGovernor, ToolRegistry } from './tools/index.js';
import type { DelegateTaskTool, KnowledgeIndexes } from './tools/builtin/index.js';

export interface AppContext {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The configured chat model, or null when `ChatModel:Provider` is unset. */
  readonly chatModel: ChatModel | null;
  readonly registry: ToolRegistry;
  readonly governor: ToolGovernor;
  readonly validator: ParameterValidator;
  readonly knowledge: KnowledgeIndexes;
  /** Bound by the bundles feature to its agent runtime. */
  readonly delegateTask: DelegateTaskTool;
  /** Registers a function to run when the app closes (stop sweepers, end streams with RUN_ERROR). */
  onClose(hook: () => Promise<void>): void;
}
