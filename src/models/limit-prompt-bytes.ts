// Bounds what any caller can make the host send upstream: a request whose messages (contents, tool
// call names and arguments) are larger than `maxBytes` in UTF-8 is refused before a connection is
// made, with a caller-safe ChatModelError, so the agent loop, workflow steps and the eval grader all
// fail the same way. It measures, never cuts: a prompt is sent whole or not at all.
import { ChatModelError, type ChatMessage, type ChatModel, type ChatStreamPart } from './chat-model.js';

export const promptTooLargeMessage = (maxBytes: number): string => `The prompt is larger than the ${maxBytes} bytes this host sends to a chat model.`;

export function limitPromptBytes(model: ChatModel, maxBytes: number): ChatModel {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    stream: (request) => (promptBytes(request.messages, maxBytes) > maxBytes ? refuse(maxBytes) : model.stream(request)),
  };
}

/** UTF-8 bytes of the messages' text, counted only until `limit` is passed. */
export function promptBytes(messages: readonly ChatMessage[], limit: number): number {
  let bytes = 0;
  for (const message of messages) {
    bytes += Buffer.byteLength(message.content, 'utf8');
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) bytes += Buffer.byteLength(call.name, 'utf8') + Buffer.byteLength(call.arguments, 'utf8');
    }
    if (bytes > limit) return bytes;
  }
  return bytes;
}

// eslint-disable-next-line require-yield -- it only ever rejects, as a stream that failed before its first part
async function* refuse(maxBytes: number): AsyncGenerator<ChatStreamPart> {
  throw new ChatModelError('prompt-too-large', promptTooLargeMessage(maxBytes));
}
