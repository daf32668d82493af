// RetrievalPlan steps must name an index configured under `Retrieval:Indexes`.
import type { DiagnosticList } from './diagnostic.js';
import type { ReadDefinition } from './read-definition.js';

export function checkRetrievalIndexes(definition: ReadDefinition, hasIndex: (name: string) => boolean, diagnostics: DiagnosticList): void {
  for (const step of definition.steps) {
    const configuration = step.configuration;
    if (configuration?.type !== 'RetrievalPlan' || configuration.index === '' || hasIndex(configuration.index)) continue;
    const at = step.name === undefined ? {} : { step: step.name };
    diagnostics.add('unknown-index', `Step '${step.name ?? step.index}' names a retrieval index that is not configured.`, at);
  }
}
