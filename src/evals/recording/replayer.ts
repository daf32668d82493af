// Answers a recorded case from its recording (DESIGN §19 "Replay"). One cursor over the steps, numbered
// from 1, shared by both halves:
// - `replay: "all"`: `model` answers each model request with the next recorded model step (its text and
//   tool calls), with no model call and no cost; each tool call must be the next recorded tool step
//   (same tool, operation and arguments) and is answered with its recorded result. A model request past
//   the recording, or a call that is not the next recorded one — a tool the conversation no longer
//   offers included, unless the recorded call was denied then too — diverges: the case is errored with
//   `Replay diverged at step N.`
// - `replay: "tools"`: the live model; a call is answered from the first recorded call with the same
//   tool, operation and arguments not answered yet, else with `Not in the recording.` (isError); a tool
//   the conversation does not offer is denied, as the governed call would. No real tool ever runs.
import { isDeepStrictEqual } from 'node:util';
import { TOOL_DENIED_CONTENT, type ExecuteTool, type ToolCallRequest, type ToolExecution } from '../../agent/index.js';
import { ChatModelError, type ChatModel, type ChatStreamPart } from '../../models/index.js';
import { isModelStep, NOT_IN_RECORDING, replayDiverged, type RecordedToolStep, type Recording } from './recording.js';

export class Replayer {
  readonly #steps: Recording['steps'];
  readonly #mode: 'tools' | 'all';
  /** Index of the next step (mode "all"). */
  #next = 0;
  /** Recorded tool steps already answered (mode "tools"). */
  readonly #used = new Set<number>();
  #diverged: number | null = null;
  /** Every call the model asked for, in order. */
  readonly calls: { tool: string; operation: string }[] = [];

  constructor(recording: Recording, mode: 'tools' | 'all') {
    this.#steps = recording.steps;
    this.#mode = mode;
  }

  /** `Replay diverged at step N.` once the conversation left the recording; else null. */
  get divergence(): string | null {
    return this.#diverged === null ? null : replayDiverged(this.#diverged);
  }

  /** The recorded model (mode "all"): each request answered with the next recorded model step. */
  model(): ChatModel {
    const next = (): { text: string; toolCalls: readonly { tool: string; operation: string; arguments: Readonly<Record<string, unknown>> }[] } => {
      if (this.#diverged !== null) throw new ChatModelError('invalid-response', replayDiverged(this.#diverged));
      const step = this.#steps[this.#next];
      if (step === undefined || !isModelStep(step)) throw this.#diverge();
      this.#next += 1;
      return step.model;
    };
    return {
      specificationVersion: 'portcullis-chat-v1',
      provider: 'Scripted',
      modelId: 'recording',
      async *stream(): AsyncGenerator<ChatStreamPart> {
        const answer = next();
        if (answer.text !== '') yield { type: 'text-delta', delta: answer.text };
        let index = 0;
        for (const call of answer.toolCalls) {
          index += 1;
          yield { type: 'tool-call', call: { id: `replayed_${index}`, name: call.tool, arguments: JSON.stringify({ operation: call.operation, parameters: call.arguments }) } };
        }
        yield { type: 'finish', finishReason: answer.toolCalls.length > 0 ? 'tool-calls' : 'stop', usage: { inputTokens: 0, outputTokens: 0 } };
      },
    };
  }

  /** What answers the conversation's tool calls, given the tools it offers. */
  executeTool(offered: ReadonlySet<string>): ExecuteTool {
    return async (call): Promise<ToolExecution> => {
      this.calls.push({ tool: call.name, operation: call.operation });
      return this.#mode === 'all' ? this.#nextTool(call, offered) : this.#matchingTool(call, offered);
    };
  }

  #nextTool(call: ToolCallRequest, offered: ReadonlySet<string>): ToolExecution {
    const step = this.#steps[this.#next];
    if (this.#diverged !== null || step === undefined || isModelStep(step) || !sameCall(step, call) || (!offered.has(call.name) && !wasDenied(step))) {
      if (this.#diverged === null) this.#diverge();
      return { status: 'replayed', content: NOT_IN_RECORDING };
    }
    this.#next += 1;
    return { status: 'replayed', content: step.result };
  }

  #matchingTool(call: ToolCallRequest, offered: ReadonlySet<string>): ToolExecution {
    if (!offered.has(call.name)) return { status: 'denied' };
    const index = this.#steps.findIndex((step, at) => !this.#used.has(at) && !isModelStep(step) && sameCall(step, call));
    if (index === -1) return { status: 'replayed', content: NOT_IN_RECORDING };
    this.#used.add(index);
    return { status: 'replayed', content: (this.#steps[index] as RecordedToolStep).result };
  }

  #diverge(): ChatModelError {
    this.#diverged = this.#next + 1;
    return new ChatModelError('invalid-response', replayDiverged(this.#diverged));
  }
}

/** The recorded run was refused this call by policy (a tool it was not offered, say): not offered now either, it is answered with that denial. */
function wasDenied(step: RecordedToolStep): boolean {
  return step.isError && step.result === TOOL_DENIED_CONTENT;
}

function sameCall(step: RecordedToolStep, call: ToolCallRequest): boolean {
  return step.tool === call.name && step.operation === call.operation && isDeepStrictEqual(step.arguments, call.parameters);
}
