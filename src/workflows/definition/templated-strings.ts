// Which strings of a step configuration are templates: prompts, system text, gate messages,
// retrieval queries and every string inside ToolUse parameters (at any depth).
import { madeOnce } from '../../platform/memo/index.js';
import type { StepConfiguration } from './workflow-definition.js';

/** The strings of frozen (stored) configurations, listed once: a run's start checks every step's. */
const listed = new WeakMap<StepConfiguration, readonly string[]>();

export function templatedStrings(configuration: StepConfiguration): readonly string[] {
  return madeOnce(listed, configuration, (frozen) => Object.freeze(collect(frozen)));
}

function collect(configuration: StepConfiguration): string[] {
  switch (configuration.type) {
    case 'LlmCall':
      return configuration.system === undefined ? [configuration.prompt] : [configuration.prompt, configuration.system];
    case 'ToolUse':
      return collectStrings(configuration.parameters, []);
    case 'HumanGate':
      return [configuration.message];
    case 'RetrievalPlan':
      return [...configuration.queries];
    case 'ConditionalBranch':
    case 'SubPlanInvocation':
      return [];
  }
}

function collectStrings(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) collectStrings(item, into);
  return into;
}
