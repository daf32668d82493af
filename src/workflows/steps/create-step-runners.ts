// The six real step runners for one run: the tool-using ones are bound to the run's owner and to the
// envelope captured when the run started; every output is measured against the run's output bounds.
import type { Tracing } from '../../platform/tracing/index.js';
import type { ChatModel } from '../../models/index.js';
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
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
  run: { readonly ownerId: string; readonly envelope: ResolvedEnvelope | EffectiveEnvelope },
): StepRunners {
  const { limits } = deps;
  const governed = { calls: deps.calls, ownerId: run.ownerId, envelope: run.envelope, limits };
  return boundOutputs(
    {
      LlmCall: createLlmCallRunner({ chatModel: deps.chatModel, ...deps.chatDefaults, limits }),
      ToolUse: createToolUseRunner(governed),
      HumanGate: createHumanGateRunner(limits),
      ConditionalBranch: createConditionalBranchRunner({ conditions: deps.conditions, ownerId: run.ownerId }),
      SubPlanInvocation: createSubPlanRunner(),
      RetrievalPlan: createRetrievalPlanRunner({ ...governed, knowledge: deps.knowledge }),
    },
    limits,
  );
}
