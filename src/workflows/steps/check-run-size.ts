// What can be known about a run's size when it starts, before anything runs: the steps of its whole
// expansion (sub-plans included) and, for every templated string, the size it renders to from the
// input alone (step outputs count as empty, so this is a lower bound). A run that is certain to pass
// a bound is refused at start instead of failing a step later.
import { renderedSizeFromInput } from '../definition/render-template.js';
import { templatedStrings } from '../definition/templated-strings.js';
import type { JsonObject } from '../definition/workflow-definition.js';
import type { GraphStep, WorkflowGraph } from '../engine/workflow-graph.js';
import type { StepLimits } from './step-limits.js';

/** Why the run cannot start (a caller-safe detail), or undefined when nothing is known to be too large. */
export function checkRunSize(graph: WorkflowGraph, input: JsonObject, limits: Pick<StepLimits, 'maxSteps' | 'maxRenderedTemplateBytes'>): string | undefined {
  const steps = [...stepsWithInput(graph, input)];
  if (steps.length > limits.maxSteps) {
    return `With the steps of its sub-plans the workflow has ${steps.length} steps; at most ${limits.maxSteps} are allowed.`;
  }
  const max = limits.maxRenderedTemplateBytes;
  for (const [step, stepInput] of steps) {
    let size = 0;
    // A ToolUse step's parameters are bounded as a whole; every other template on its own.
    const whole = step.configuration.type === 'ToolUse';
    for (const template of templatedStrings(step.configuration)) {
      const rendered = renderedSizeFromInput(template, stepInput, max);
      size = whole ? size + rendered : rendered;
      if (size > max) return `With this input, step '${step.path}' renders a template larger than the ${max} bytes a template may render to.`;
    }
  }
  return undefined;
}

/** Every step of the expansion with the input it will run under (a child sees its defaults overlaid with its parent's input). */
function* stepsWithInput(graph: WorkflowGraph, input: JsonObject): Generator<[GraphStep, JsonObject]> {
  for (const step of graph.steps) {
    yield [step, input];
    if (step.child) yield* stepsWithInput(step.child, { ...step.child.input, ...input });
  }
}
