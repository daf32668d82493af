// RetrievalPlan: several templated queries against one `Retrieval:Indexes` index, fused by
// reciprocal rank, `topK` kept. Reading an index is what the `knowledge` tool does, so the run's
// envelope must grant `knowledge` and the governor must allow each query, exactly as for a
// ToolUse step; the plan reads the indexes directly because it needs whole documents.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { ToolGovernor, ToolRegistry } from '../../tools/index.js';
import type { KnowledgeIndexes } from '../../tools/builtin/index.js';
import { renderText } from '../definition/render-template.js';
import type { RetrievalPlanConfiguration } from '../definition/workflow-definition.js';
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';
import { fuseByReciprocalRank } from './reciprocal-rank-fusion.js';
import { INDEX_MISSING, TOOL_DENIED, templateTooLarge } from './step-failures.js';
import type { StepLimits } from './step-limits.js';
import { templateScope } from './template-scope.js';

export const RETRIEVAL_TOOL = 'knowledge';

export interface RetrievalPlanDependencies {
  readonly knowledge: Pick<KnowledgeIndexes, 'search'>;
  readonly registry: ToolRegistry;
  readonly governor: ToolGovernor;
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly limits: Pick<StepLimits, 'maxRenderedTemplateBytes'>;
}

export function createRetrievalPlanRunner(deps: RetrievalPlanDependencies): StepRunner {
  return async (context): Promise<StepOutcome> => {
    const configuration = context.step.configuration as RetrievalPlanConfiguration;
    const tool = await deps.registry.findGranted(deps.envelope, RETRIEVAL_TOOL, context.signal);
    if (tool === undefined) return { ok: false, error: TOOL_DENIED };
    const scope = templateScope(context);
    const lists = [];
    for (const template of configuration.queries) {
      const query = renderText(template, scope, deps.limits.maxRenderedTemplateBytes);
      if (query === undefined) return { ok: false, error: templateTooLarge(deps.limits.maxRenderedTemplateBytes) };
      const parameters = { index: configuration.index, query, topK: configuration.topK };
      const verdict = deps.governor.authorize({
        ownerId: deps.ownerId,
        envelope: deps.envelope,
        tool,
        operation: 'search',
        parameters,
        signal: context.signal,
        surface: 'workflow',
      });
      if (!verdict.allowed) return { ok: false, error: TOOL_DENIED };
      const hits = deps.knowledge.search(configuration.index, query, configuration.topK);
      if (hits === undefined) return { ok: false, error: INDEX_MISSING };
      lists.push(hits);
    }
    const output = fuseByReciprocalRank(lists, configuration.topK).map(({ hit, score }) => ({ id: hit.id, title: hit.title, text: hit.text, score }));
    return { ok: true, output };
  };
}
