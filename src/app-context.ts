// What the composition root hands every feature's `register…` function: configuration, the shared
// infrastructure and the tool plane. Features take what they need from it and nothing else.
import type { AppConfig } from './platform/config/types.js';
import type { Clock, IdGenerator } from './platform/clock/index.js';
import type { Logger } from './platform/log/index.js';
import type { ChatModel } from './models/index.js';
import type { ParameterValidator, ToolGovernor, ToolRegistry } from './tools/index.js';
import type { DelegateTaskTool, KnowledgeIndexes } from './tools/builtin/index.js';
import type { Storage } from './platform/storage/index.js';
import type { RunEngine } from './runs/index.js';
import type { ServiceMetrics } from './platform/metrics/index.js';
import type { Tracing } from './platform/tracing/index.js';
import type { AuditLog } from './platform/audit/index.js';

export interface AppContext {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The /metrics families (inert when AppConfig:Observability:Metrics:Enabled is false). */
  readonly metrics: ServiceMetrics;
  /** OpenTelemetry tracing; `enabled` is false unless an OTLP endpoint is configured. */
  readonly tracing: Tracing;
  /** The audit trail: one log event per governance decision. */
  readonly audit: AuditLog;
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
  /** Everything kept beyond one request (Memory or PostgreSQL). */
  readonly storage: Storage;
  /** The one run engine: admission, dispatch, leases, takeover. Families register their run kind. */
  readonly engine: RunEngine;
  /** Stops every run executing here (idempotent; the first caller's grace applies). */
  stopRuns(): Promise<void>;
  /** Registers a function to run when the app closes, in registration order, before the storage closes. */
  onClose(hook: () => Promise<void>): void;
}
