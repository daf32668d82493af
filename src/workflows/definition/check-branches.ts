// A ConditionalBranch is complete when both targets name steps and an edge leads to each; any other
// outgoing edge would run regardless of the condition, so it is refused as undeclared.
import type { DiagnosticList } from './diagnostic.js';
import type { GraphShape } from './check-graph.js';
import type { ReadDefinition } from './read-definition.js';

export function checkBranches(definition: ReadDefinition, graph: GraphShape, diagnostics: DiagnosticList): void {
  for (const step of definition.steps) {
    const configuration = step.configuration;
    if (configuration?.type !== 'ConditionalBranch' || step.name === undefined) continue;
    const name = step.name;
    const out = graph.successors[step.index]!;
    const targets = new Set<number>();
    for (const key of ['ifTrue', 'ifFalse'] as const) {
      const target = configuration[key];
      if (target === '') continue; // reported when the configuration was read
      const index = graph.indexOf.get(target);
      if (index === undefined) {
        diagnostics.add('incomplete-branch', `Step '${name}': '${key}' names no step.`, { step: name });
      } else if (!out.includes(index)) {
        diagnostics.add('incomplete-branch', `Step '${name}': there is no edge to its '${key}' step '${target}'.`, { step: name });
      } else {
        targets.add(index);
      }
    }
    for (const successor of out) {
      if (targets.has(successor) || isTarget(configuration, definition, successor)) continue;
      diagnostics.add(
        'undeclared-branch-edge',
        `Step '${name}' has an edge to '${definition.steps[successor]!.name!}', which is neither its 'ifTrue' nor its 'ifFalse' step.`,
        { step: name },
      );
    }
  }
}

function isTarget(configuration: { ifTrue: string; ifFalse: string }, definition: ReadDefinition, index: number): boolean {
  const name = definition.steps[index]!.name;
  return name === configuration.ifTrue || name === configuration.ifFalse;
}
