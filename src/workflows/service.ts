// The workflow family's use cases, without HTTP: definitions (validate, submit, list, get, delete)
// and runs (start, poll, list, cancel, approvals, watchers), built on the storage port and the shared
// run engine, with the workflow run kind registered on the engine.
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { Logger } from '../platform/log/index.js';
import type { WorkflowsConfig } from '../platform/config/types.js';
import type { Storage } from '../platform/storage/index.js';
import type { RunEngine } from '../runs/index.js';
import { DefinitionStore } from './definition/definition-store.js';
import { DefinitionService } from './definition-service.js';
import type { Timers } from './engine/timers.js';
import { RunExecutor } from './runs/run-executor.js';
import { RunService } from './runs/run-service.js';
import { RunStore } from './runs/run-store.js';
import type { StepRunnerDependencies } from './steps/create-step-runners.js';
import { workflowRunKind } from './workflow-run-kind.js';

export interface WorkflowServiceDependencies {
  readonly config: WorkflowsConfig;
  readonly storage: Storage;
  readonly engine: RunEngine;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly steps: StepRunnerDependencies;
  readonly hasIndex: (name: string) => boolean;
}

export interface WorkflowService {
  readonly definitions: DefinitionService;
  readonly runs: RunService;
  /** Where runs are kept (streams read their journals). */
  readonly store: RunStore;
}

export function createWorkflowService(deps: WorkflowServiceDependencies): WorkflowService {
  const { config, clock, ids, storage, engine } = deps;
  const store = new DefinitionStore({ storage });
  const runStore = new RunStore({ storage, recordTtlMs: config.runRecordTtlMs });
  const executor = new RunExecutor({ runs: runStore, clock, ids, timers: deps.timers, steps: deps.steps, logger: deps.logger, durable: storage.durable });
  engine.register(workflowRunKind({ runs: runStore, executor, maxConcurrent: config.maxConcurrentRuns, durable: storage.durable }));
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
  const runs = new RunService({
    definitions: store,
    runs: runStore,
    executor,
    engine,
    clock,
    ids,
    logger: deps.logger,
    maxActiveRunsPerOwner: config.maxActiveRunsPerOwner,
    stepLimits: deps.steps.limits,
  });
  return { definitions, runs, store: runStore };
}
