// RetrievalPlan: several templated queries against one `Retrieval:Indexes` index, fused by
// reciprocal rank, `topK` kept. Reading an index is what the `knowledge` tool does, so each query is
// one governed call of `knowledge.search` (surface `workflow`: granted, allowed, audited and counted
// exactly as a ToolUse step's), executed by reading the index directly because the plan needs whole
// documents.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import { toolFailure, toolSuccess, type GovernedCalls } from '../../tools/index.js';
import type { KnowledgeHit } from '../../tools/builtin/index.js';
import type { KnowledgeIndexes } from '../../tools/builtin/index.js';
import { renderText } from '../definition/render-template.js';
import type { RetrievalPlanConfiguration } from '../definition/workflow-definition.js';
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';
import { fuseByReciprocalRank } from './reciprocal-rank-fusion.js';
import { INDEX_MISSING, TOOL_DENIED, templateTooLarge } from './step-failures.js';
import type { StepLimits } from './step-limits.js';
import { templateScope } from './template-scope.js';

export const RETRIEVAL_TOOL = 'knowledge';
/** The operation of RETRIEVAL_TOOL a plan calls. */
export const RETRIEVAL_OPERATION = 'search';

export interface RetrievalPlanDependencies {
  readonly knowledge: Pick<KnowledgeIndexes, 'search'>;
  readonly calls: GovernedCalls;
  readonly ownerId: string;
  /** The run's job id (its policies' run counters). */
  readonly runId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly limits: Pick<StepLimits, 'maxRenderedTemplateBytes'>;
}

export function createRetrievalPlanRunner(deps: RetrievalPlanDependencies): StepRunner {
  return async (context): Promise<StepOutcome> => {
    const configuration = context.step.configuration as RetrievalPlanConfiguration;
    const scope = templateScope(context);
    const lists = [];
    for (const template of configuration.queries) {
      const query = renderText(template, scope, deps.limits.maxRenderedTemplateBytes);
      if (query === undefined) return { ok: false, error: templateTooLarge(deps.limits.maxRenderedTemplateBytes) };
      const input = { operation: RETRIEVAL_OPERATION, parameters: { index: configuration.index, query, topK: configuration.topK } };
      let hits: readonly KnowledgeHit[] | undefined;
      const outcome = await deps.calls.call(
        { surface: 'workflow', ownerId: deps.ownerId, runId: deps.runId, envelope: deps.envelope, toolName: RETRIEVAL_TOOL, input: () => input, signal: context.signal },
        async () => {
          hits = deps.knowledge.search(configuration.index, query, configuration.topK);
          return hits === undefined ? toolFailure(INDEX_MISSING) : toolSuccess('');
        },
      );
      if (outcome.status === 'denied') return { ok: false, error: TOOL_DENIED };
      if (hits === undefined) return { ok: false, error: INDEX_MISSING };
      lists.push(hits);
    }
    const output = fuseByReciprocalRank(lists, configuration.topK).map(({ hit, score }) => ({ id: hit.id, title: hit.title, text: hit.text, score }));
    return { ok: true, output };
  };
}
