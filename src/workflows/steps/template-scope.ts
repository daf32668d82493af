// The scope templates render against inside a running step: its workflow's input and the settled
// steps before it.
import type { TemplateScope } from '../definition/render-template.js';
import type { StepContext } from '../engine/step-runner.js';

export function templateScope(context: StepContext): TemplateScope {
  return { input: context.input, steps: context.steps };
}
