// The workflow family's use cases, without HTTP: definitions (validate, submit, list, get, delete)
// and runs (start, poll, cancel, approvals, watchers). Built from stores and collaborators.
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { Logger } from '../platform/log/index.js';
import type { WorkflowsConfig } from '../platform/config/types.js';
import { DefinitionStore } from './definition/definition-store.js';
import { DefinitionService } from './definition-service.js';
import type { Timers } from './engine/timers.js';
import { LiveRuns } from './runs/live-runs.js';
import { RunService } from './runs/run-service.js';
import { RunStore } from './runs/run-store.js';
import type { StepRunnerDependencies } from './steps/create-step-runners.js';

export interface WorkflowServiceDependencies {
  readonly config: WorkflowsConfig;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly steps: StepRunnerDependencies;
  readonly hasIndex: (name: string) => boolean;
  readonly dispatch?: (work: () => void) => void;
}

export interface WorkflowService {
  readonly definitions: DefinitionService;
  readonly runs: RunService;
}

export function createWorkflowService(deps: WorkflowServiceDependencies): WorkflowService {
  const { config, clock, ids } = deps;
  const store = new DefinitionStore({ clock });
  const live = new LiveRuns(config.maxActiveRunsPerOwner);
  const definitions = new DefinitionService({
    store,
    live,
    clock,
    ids,
    maxSteps: config.maxSteps,
    maxDefinitionsPerOwner: config.maxDefinitionsPerOwner,
    hasIndex: deps.hasIndex,
    tools: deps.steps,
  });
  const runs = new RunService({
    definitions: store,
    runs: new RunStore({ clock, recordTtlMs: config.runRecordTtlMs }),
    live,
    clock,
    ids,
    timers: deps.timers,
    steps: deps.steps,
    logger: deps.logger,
    maxActiveRunsPerOwner: config.maxActiveRunsPerOwner,
    logRetain: config.watcherBufferFrames,
    ...(deps.dispatch ? { dispatch: deps.dispatch } : {}),
  });
  return { definitions, runs };
}
