// LlmCall: one streamed chat-model call with the templated prompt (and optional system text); the
// step's output is the text, its usage is recorded. The run's abort signal reaches the model call. A
// call refused on the owner's spend limit fails the step with that sentence (DESIGN §16).
import { ChatModelError, isSpendLimit, type ChatMessage, type ChatModel } from '../../models/index.js';
import { SPEND_LIMIT_REACHED } from '../../platform/spend/index.js';
import { renderText } from '../definition/render-template.js';
import type { LlmCallConfiguration } from '../definition/workflow-definition.js';
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';
import { untilAborted } from '../../platform/abort/index.js';
import { MODEL_CALL_FAILED, NO_CHAT_MODEL, stepOutputTooLarge, templateTooLarge } from './step-failures.js';
import type { StepLimits } from './step-limits.js';
import { templateScope } from './template-scope.js';

export interface LlmCallDependencies {
  readonly chatModel: ChatModel | null;
  /** `ChatModel:MaxOutputTokens`, used when the step sets none. */
  readonly maxOutputTokens: number;
  readonly temperature: number | null;
  readonly limits: Pick<StepLimits, 'maxRenderedTemplateBytes' | 'maxStepOutputBytes'>;
}

export function createLlmCallRunner(deps: LlmCallDependencies): StepRunner {
  return async (context): Promise<StepOutcome> => {
    const configuration = context.step.configuration as LlmCallConfiguration;
    if (deps.chatModel === null) return { ok: false, error: NO_CHAT_MODEL };
    const { maxRenderedTemplateBytes, maxStepOutputBytes } = deps.limits;
    const scope = templateScope(context);
    const messages: ChatMessage[] = [];
    for (const [role, template] of [['system', configuration.system], ['user', configuration.prompt]] as const) {
      if (template === undefined) continue;
      const content = renderText(template, scope, maxRenderedTemplateBytes);
      if (content === undefined) return { ok: false, error: templateTooLarge(maxRenderedTemplateBytes) };
      messages.push({ role, content });
    }
    const { signal } = context;
    let text = '';
    let textBytes = 0;
    let inputTokens = 0;
    let outputTokens = 0;
    const stream = deps.chatModel.stream({
      messages,
      tools: [],
      signal,
      maxOutputTokens: configuration.maxOutputTokens ?? deps.maxOutputTokens,
      ...(deps.temperature !== null ? { temperature: deps.temperature } : {}),
    });
    const iterator = stream[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await untilAborted(iterator.next(), signal);
        if (next.done === true) break;
        const part = next.value;
        if (part.type === 'text-delta') {
          textBytes += Buffer.byteLength(part.delta, 'utf8');
          // Stop reading (and abort the upstream call) as soon as the output cannot be kept.
          if (textBytes > maxStepOutputBytes) {
            iterator.return?.().catch(() => undefined);
            return { ok: false, error: stepOutputTooLarge(maxStepOutputBytes) };
          }
          text += part.delta;
        } else if (part.type === 'finish') {
          inputTokens += count(part.usage.inputTokens);
          outputTokens += count(part.usage.outputTokens);
        }
      }
    } catch (error) {
      iterator.return?.().catch(() => undefined);
      if (signal.aborted) throw error;
      if (isSpendLimit(error)) return { ok: false, error: SPEND_LIMIT_REACHED };
      return { ok: false, error: error instanceof ChatModelError ? `${MODEL_CALL_FAILED} (${error.code})` : MODEL_CALL_FAILED };
    }
    return { ok: true, output: text, usage: { inputTokens, outputTokens } };
  };
}

function count(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}
