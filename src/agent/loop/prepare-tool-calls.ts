// Gives each tool call of a model step the id its frames and history use, and its redacted form.
// The provider's id is kept unless it is empty or already used in this run (stateless providers may
// repeat ids across steps); then a fresh one is minted, so frames never reuse a toolCallId and every
// stored tool result matches its own call.
import type { ModelToolCall } from '../../models/index.js';
import type { IdGenerator } from '../../platform/clock/index.js';
import { redactText } from '../../platform/redaction/index.js';
import { redactToolArguments } from './redact-tool-arguments.js';

export interface PreparedToolCall {
  readonly toolCallId: string;
  /** As the model produced it (its id may differ from toolCallId). */
  readonly call: ModelToolCall;
  /** `{ id: toolCallId, name, arguments }` redacted: what frames carry and history stores. */
  readonly redacted: ModelToolCall;
}

export function prepareToolCalls(calls: readonly ModelToolCall[], usedIds: Set<string>, ids: IdGenerator): PreparedToolCall[] {
  return calls.map((call) => {
    let toolCallId = call.id;
    while (toolCallId === '' || usedIds.has(toolCallId)) toolCallId = ids.opaque();
    usedIds.add(toolCallId);
    return {
      toolCallId,
      call,
      redacted: { id: toolCallId, name: redactText(call.name), arguments: redactToolArguments(call.arguments) },
    };
  });
}
