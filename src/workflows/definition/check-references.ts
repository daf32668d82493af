// Templates and conditions may only read what exists when the step runs: the input, and outputs of
// steps upstream of it. Unknown steps, steps that are not ancestors (including the step itself),
// malformed placeholders, conditions that do not compile to a boolean and conditions knowably over
// their cost budget are reported.
import { checkCondition } from './condition.js';
import type { DiagnosticList } from './diagnostic.js';
import type { GraphShape } from './check-graph.js';
import { parseTemplate } from './parse-template.js';
import type { ReadDefinition, ReadStep } from './read-definition.js';
import { templatedStrings } from './templated-strings.js';

export function checkReferences(definition: ReadDefinition, graph: GraphShape, diagnostics: DiagnosticList): void {
  const ancestors = new Map<number, Uint8Array>();
  const ancestorsOf = (index: number): Uint8Array => {
    let set = ancestors.get(index);
    if (set === undefined) {
      set = reverseReach(graph.predecessors, index);
      ancestors.set(index, set);
    }
    return set;
  };

  for (const step of definition.steps) {
    if (step.configuration === undefined || step.name === undefined) continue;
    const name = step.name;
    const referenced = new Set<string>();
    for (const text of templatedStrings(step.configuration)) {
      const parsed = parseTemplate(text);
      if (!parsed.ok) {
        diagnostics.add('invalid-template', `Step '${name}' has a placeholder that is neither {{ input… }} nor {{ steps.<name>.output… }}.`, { step: name });
        continue;
      }
      for (const part of parsed.template.parts) if (typeof part === 'object' && part.step !== undefined) referenced.add(part.step);
    }
    if (step.configuration.type === 'ConditionalBranch' && step.configuration.condition !== '') {
      const check = checkCondition(step.configuration.condition);
      if (!check.ok) {
        const what = { 'invalid-condition': 'does not compile', 'condition-not-boolean': 'must yield a boolean', 'condition-too-costly': 'could do more work than a condition may' }[check.code];
        diagnostics.add(check.code, `Step '${name}': the condition ${what} (${check.message}).`, { step: name });
      } else {
        for (const target of check.referencedSteps) referenced.add(target);
      }
    }
    for (const target of referenced) reportReference(step, target, graph, diagnostics, ancestorsOf);
  }
}

function reportReference(
  step: ReadStep,
  target: string,
  graph: GraphShape,
  diagnostics: DiagnosticList,
  ancestorsOf: (index: number) => Uint8Array,
): void {
  const name = step.name!;
  const index = graph.indexOf.get(target);
  if (index === undefined) {
    diagnostics.add('unknown-step-reference', `Step '${name}' refers to an unknown step '${target.slice(0, 100)}'.`, { step: name });
  } else if (graph.acyclic && ancestorsOf(step.index)[index] !== 1) {
    diagnostics.add('step-reference-not-upstream', `Step '${name}' refers to step '${target}', which does not run before it.`, { step: name });
  }
}

/** Steps from which `index` can be reached (its ancestors), excluding itself. */
function reverseReach(predecessors: readonly (readonly number[])[], index: number): Uint8Array {
  const seen = new Uint8Array(predecessors.length);
  const stack = [...predecessors[index]!];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen[next] === 1) continue;
    seen[next] = 1;
    stack.push(...predecessors[next]!);
  }
  return seen;
}
