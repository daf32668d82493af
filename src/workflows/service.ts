// The workflow family's use cases, without HTTP: definitions (validate, submit, list, get, delete)
// and runs (start, poll, list, cancel, approvals, watchers), built on the storage port and the shared
// run engine, with the workflow run kind registered on the engine.
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { Logger } from '../platform/log/index.js';
import type { WorkflowsConfig } from '../platform/config/types.js';
import type { Storage } from '../platform/storage/index.js';
import type { RunEngine } from '../runs/index.js';
import type { AccessPolicy } from '../platform/access/index.js';
import { decisionOf, type Approvals } from '../approvals/index.js';
import { DefinitionStore } from './definition/definition-store.js';
import { DefinitionService } from './definition-service.js';
import type { Timers } from './engine/timers.js';
import { WorkflowRunExecutor } from './runs/workflow-run-executor.js';
import { WorkflowRunService } from './runs/workflow-run-service.js';
import { WorkflowRunStore, workflowRunKey } from './runs/workflow-run-store.js';
import type { StepRunnerDependencies } from './steps/create-step-runners.js';
import type { EventOutbox } from '../platform/outbox/index.js';
import { workflowRunKind } from './runs/workflow-run-kind.js';

export interface WorkflowServiceDependencies {
  readonly config: WorkflowsConfig;
  readonly storage: Storage;
  readonly engine: RunEngine;
  readonly access: AccessPolicy;
  readonly approvals: Approvals;
  /** Where workflow.run.blocked and workflow.run.finished are written with the change. */
  readonly events: EventOutbox;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly steps: StepRunnerDependencies;
  readonly hasIndex: (name: string) => boolean;
}

export interface WorkflowService {
  readonly definitions: DefinitionService;
  readonly runs: WorkflowRunService;
  /** Where runs are kept (streams read their journals). */
  readonly store: WorkflowRunStore;
}

export function createWorkflowService(deps: WorkflowServiceDependencies): WorkflowService {
  const { config, clock, ids, storage, engine } = deps;
  const store = new DefinitionStore({ storage });
  const { approvals } = deps;
  const runStore = new WorkflowRunStore({ storage, recordTtlMs: config.runRecordTtlMs, approvals: approvals.store });
  const { events } = deps;
  const executor = new WorkflowRunExecutor({ runs: runStore, approvals, events, clock, ids, timers: deps.timers, steps: deps.steps, logger: deps.logger });
  engine.register(workflowRunKind({ runs: runStore, approvals, events, executor, maxConcurrent: config.maxConcurrentRuns, clock, logger: deps.logger }));
  // A decision made through any instance wakes the parked run through the engine, on that instance.
  approvals.onDecided('workflow', async (approval, ownerId) => {
    const decision = decisionOf(approval);
    if (decision !== undefined) await engine.decided(workflowRunKey({ ownerId }, approval.jobId), decision);
  });
  const definitions = new DefinitionService({
    store,
    hasLiveRun: (owner, workflowId) => runStore.hasLiveRun(owner, workflowId),
    clock,
    ids,
    maxSteps: config.maxSteps,
    maxDefinitionsPerOwner: config.maxDefinitionsPerOwner,
    hasIndex: deps.hasIndex,
    tools: deps.steps,
  });
  const runs = new WorkflowRunService({
    definitions: store,
    runs: runStore,
    engine,
    access: deps.access,
    approvals,
    clock,
    ids,
    logger: deps.logger,
    maxActiveRunsPerOwner: config.maxActiveRunsPerOwner,
    stepLimits: deps.steps.limits,
    host: { hasChatModel: deps.steps.chatModel !== null, offers: (name) => deps.steps.registry.lookupOffline(name) !== undefined },
    notGranted: (denial) => deps.steps.calls.notGrantedBeforeCall(denial),
  });
  return { definitions, runs, store: runStore };
}
