import { describe, expect, it } from 'vitest';
import { ChatModelError, type ChatModel, type ChatRequest } from './chat-model.js';
import { limitPromptBytes, promptBytes } from './limit-prompt-bytes.js';

function recordingModel() {
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    specificationVersion: 'portcullis-chat-v1',
    provider: 'Scripted',
    modelId: 'recording',
    async *stream(request) {
      requests.push(request);
      yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
  return { model, requests };
}

const request = (content: string): ChatRequest => ({ messages: [{ role: 'user', content }], tools: [], signal: new AbortController().signal });

async function drain(model: ChatModel, req: ChatRequest): Promise<unknown> {
  try {
    for await (const _part of model.stream(req)) void _part;
    return 'ok';
  } catch (error) {
    return error;
  }
}

describe('limitPromptBytes', () => {
  it('sends a prompt of exactly the limit and refuses one byte more before anything is sent', async () => {
    const { model, requests } = recordingModel();
    const limited = limitPromptBytes(model, 10);
    expect(await drain(limited, request('é'.repeat(5)))).toBe('ok');
    const refused = await drain(limited, request(`${'é'.repeat(5)}x`));
    expect(refused).toBeInstanceOf(ChatModelError);
    expect(refused).toMatchObject({ code: 'prompt-too-large', message: 'The prompt is larger than the 10 bytes this host sends to a chat model.' });
    expect(requests).toHaveLength(1);
  });

  it('counts every message, tool call arguments included, and keeps the model identity', () => {
    const messages = [
      { role: 'system', content: 'ab' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'json', arguments: '{"a":1}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'json', content: 'xyz' },
    ] as const;
    expect(promptBytes(messages, 1000)).toBe(2 + 4 + 7 + 3);
    const { model } = recordingModel();
    expect(limitPromptBytes(model, 1)).toMatchObject({ provider: 'Scripted', modelId: 'recording', specificationVersion: 'portcullis-chat-v1' });
  });
});
