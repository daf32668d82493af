// What the composition root hands every feature's `register…` function: configuration, the shared
// infrastructure, authorization and the tool plane — and what each registration hands back: what
// shutdown must finish and close, run by app.ts in one ordered sequence.
import type { AppConfig } from './platform/config/types.js';
import type { Clock, IdGenerator } from './platform/clock/index.js';
import type { Logger } from './platform/log/index.js';
import type { ChatModel } from './models/index.js';
import type { GovernedCalls, ParameterValidator, ToolRegistry } from './tools/index.js';
import type { DelegateTaskTool, KnowledgeIndexes } from './tools/builtin/index.js';
import type { Storage } from './platform/storage/index.js';
import type { RunEngine } from './runs/index.js';
import type { ServiceMetrics } from './platform/metrics/index.js';
import type { Tracing } from './platform/tracing/index.js';
import type { AuditLog } from './platform/audit/index.js';
import type { AccessPolicy } from './platform/access/index.js';
import type { Approvals } from './approvals/index.js';
import type { IdempotencyStore } from './platform/idempotency/index.js';
import type { EventOutbox } from './platform/outbox/index.js';
import type { SpendLedger } from './platform/spend/index.js';

export interface AppContext {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The /metrics families (inert when AppConfig:Observability:Metrics:Enabled is false). */
  readonly metrics: ServiceMetrics;
  /** OpenTelemetry tracing; `enabled` is false unless an OTLP endpoint is configured. */
  readonly tracing: Tracing;
  /** The audit trail: one log event per governance decision. */
  readonly audit: AuditLog;
  /** The time everything stored is judged by (the storage's: on PostgreSQL, the database's). */
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The envelope an action is governed by, the role it needs, its audit line: authorization in one place. */
  readonly access: AccessPolicy;
  /** The configured chat model, or null when `ChatModel:Provider` is unset. */
  readonly chatModel: ChatModel | null;
  /** The one governed tool call, for every surface. */
  readonly calls: GovernedCalls;
  readonly registry: ToolRegistry;
  /** Checks parameters against an operation's schema (workflow definitions are checked when submitted). */
  readonly validator: ParameterValidator;
  readonly knowledge: KnowledgeIndexes;
  /** Bound by the bundles feature to its agent runtime. */
  readonly delegateTask: DelegateTaskTool;
  /** Everything kept beyond one request (Memory or PostgreSQL). */
  readonly storage: Storage;
  /** The one run engine: every run's lifecycle. Families register their run kind. */
  readonly engine: RunEngine;
  /** The one approval contract (DESIGN.md §13): families open approvals here and hear decisions. */
  readonly approvals: Approvals;
  /** Idempotency keys (DESIGN.md §14): an upload admits its key with the file's fingerprint. */
  readonly idempotency: IdempotencyStore;
  /** Where a family writes the events its state changes cause, in the same commit (webhooks, DESIGN.md §14). */
  readonly events: EventOutbox;
  /** Checks each model call against the owner's spend limits and counts what it cost (DESIGN §16). */
  readonly spend: SpendLedger;
}

/** What a feature needs done when the app stops, after the run engine stopped (app.ts runs them in order). */
export interface FeatureShutdown {
  /** Stops starting new runs of its own accord (the schedule ticker); before the run engine stops. */
  readonly stopStarting?: () => Promise<void>;
  /** Ends the feature's open streams (each with its terminal frame), within `graceMs`; before connections drop. */
  readonly endStreams?: (graceMs: number) => Promise<void>;
  /** Stops the feature's sweepers and releases what it holds; after the server closed. */
  readonly close?: () => Promise<void>;
}
