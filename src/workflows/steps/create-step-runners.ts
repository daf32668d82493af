// The six real step runners for one run: the tool-using ones are bound to the run's owner and to the
// envelope captured when the run started, the model call to the run's spend; every output is measured against the run's output bounds.
import type { Tracing } from '../../platform/tracing/index.js';
import { meterChatModel, type ChatModel } from '../../models/index.js';
import { NO_BUDGET, type EffectiveEnvelope, type ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { SpendLedger } from '../../platform/spend/index.js';
import type { KnowledgeIndexes } from '../../tools/builtin/index.js';
import type { GovernedCalls, ParameterValidator, ToolRegistry } from '../../tools/index.js';
import type { StepRunners } from '../engine/step-runner.js';
import type { ConditionEvaluator } from './condition-evaluator.js';
import { createConditionalBranchRunner } from './conditional-branch-runner.js';
import { createHumanGateRunner } from './human-gate-runner.js';
import { createLlmCallRunner } from './llm-call-runner.js';
import { createRetrievalPlanRunner } from './retrieval-plan-runner.js';
import { createSubPlanRunner } from './sub-plan-runner.js';
import { boundOutputs } from './bound-outputs.js';
import type { StepLimits } from './step-limits.js';
import { createToolUseRunner } from './tool-use-runner.js';

export interface StepRunnerDependencies {
  readonly chatModel: ChatModel | null;
  /** Meters each run's LlmCall steps against its owner's spend limits (DESIGN §16). */
  readonly spend?: SpendLedger;
  readonly chatDefaults: { readonly maxOutputTokens: number; readonly temperature: number | null };
  readonly calls: GovernedCalls;
  /** What a definition's tool steps are checked against when it is submitted. */
  readonly registry: ToolRegistry;
  readonly validator: ParameterValidator;
  readonly knowledge: Pick<KnowledgeIndexes, 'search'>;
  readonly limits: StepLimits;
  /** Where ConditionalBranch conditions are evaluated (off the event loop, under a budget). */
  readonly conditions: ConditionEvaluator;
  /** With tracing on, each step is a span (runs/trace-step-runners.ts). */
  readonly tracing?: Tracing;
}

export function createStepRunners(
  deps: StepRunnerDependencies,
  run: { readonly ownerId: string; readonly jobId: string; readonly envelope: ResolvedEnvelope | EffectiveEnvelope },
): StepRunners {
  const { limits } = deps;
  const grant = 'grant' in run.envelope ? run.envelope.grant : run.envelope;
  const chatModel =
    deps.chatModel === null || deps.spend === undefined
      ? deps.chatModel
      : meterChatModel(deps.chatModel, deps.spend, { ownerId: run.ownerId, family: 'workflow', runId: run.jobId, budget: grant.budget ?? NO_BUDGET });
  const governed = { calls: deps.calls, ownerId: run.ownerId, runId: run.jobId, envelope: run.envelope, limits };
  return boundOutputs(
    {
      LlmCall: createLlmCallRunner({ chatModel, ...deps.chatDefaults, limits }),
      ToolUse: createToolUseRunner(governed),
      HumanGate: createHumanGateRunner(limits),
      ConditionalBranch: createConditionalBranchRunner({ conditions: deps.conditions, ownerId: run.ownerId }),
      SubPlanInvocation: createSubPlanRunner(),
      RetrievalPlan: createRetrievalPlanRunner({ ...governed, knowledge: deps.knowledge }),
    },
    limits,
  );
}
