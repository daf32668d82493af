// What can be known about a run's size when it starts, before anything runs: the steps of its whole
// expansion (sub-plans included) and, for every templated string, the size it renders to from the
// input alone (step outputs count as empty, so this is a lower bound). A run that is certain to pass
// a bound is refused at start instead of failing a step later.
import { renderedSizeFromInput } from '../definition/render-template.js';
import { templatedStrings } from '../definition/templated-strings.js';
import type { JsonObject } from '../definition/workflow-definition.js';
import { flattenGraph } from '../engine/build-graph.js';
import type { GraphStep, WorkflowGraph } from '../engine/workflow-graph.js';
import type { StepLimits } from './step-limits.js';

/** Why the run cannot start (a caller-safe detail), or undefined when nothing is known to be too large. */
export function checkRunSize(graph: WorkflowGraph, input: JsonObject, limits: Pick<StepLimits, 'maxSteps' | 'maxRenderedTemplateBytes'>): string | undefined {
  // The expansion's steps, listed once per compiled graph (flattenGraph keeps a frozen graph's list).
  const count = flattenGraph(graph).length;
  if (count > limits.maxSteps) {
    return `With the steps of its sub-plans the workflow has ${count} steps; at most ${limits.maxSteps} are allowed.`;
  }
  return templateTooLarge(graph, input, limits.maxRenderedTemplateBytes);
}

/** The first step of the expansion, in order, whose templates render too large under the input it will run with (a child sees its defaults overlaid with its parent's input). */
function templateTooLarge(graph: WorkflowGraph, input: JsonObject, max: number): string | undefined {
  for (const step of graph.steps) {
    const tooLarge = stepTemplateTooLarge(step, input, max);
    if (tooLarge !== undefined) return tooLarge;
    if (step.child) {
      const inChild = templateTooLarge(step.child, { ...step.child.input, ...input }, max);
      if (inChild !== undefined) return inChild;
    }
  }
  return undefined;
}

function stepTemplateTooLarge(step: GraphStep, input: JsonObject, max: number): string | undefined {
  let size = 0;
  // A ToolUse step's parameters are bounded as a whole; every other template on its own.
  const whole = step.configuration.type === 'ToolUse';
  for (const template of templatedStrings(step.configuration)) {
    const rendered = renderedSizeFromInput(template, input, max);
    size = whole ? size + rendered : rendered;
    if (size > max) return `With this input, step '${step.path}' renders a template larger than the ${max} bytes a template may render to.`;
  }
  return undefined;
}
