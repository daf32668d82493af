// A real Anthropic Messages server on loopback for tests: named SSE events exactly as the API
// streams them (`message_start`, `ping`, `content_block_start` text / tool_use,
// `content_block_delta` text_delta / input_json_delta, `content_block_stop`, `message_delta` with
// stop_reason and usage, `message_stop`). Scripting, recording and abort tracking come from the
// shared core in fake-openai-server.ts. It does not validate requests beyond routing.
import {
  startFakeSseServer,
  type FakeControlStep,
  type FakeErrorReply,
  type FakeHangReply,
  type FakeProtocol,
  type FakeServer,
  type FakeSseStream,
  type ReplyHandler,
} from './fake-openai-server.js';

export type FakeAnthropicStep =
  /** Consecutive text steps share one text content block. */
  | { readonly text: string }
  | { readonly toolCall: { readonly id?: string; readonly name: string; readonly argumentChunks: readonly string[] } }
  /** One raw event, e.g. `{ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', … } } }`. */
  | { readonly event: string; readonly data: unknown }
  | FakeControlStep;

export type FakeAnthropicReply =
  | {
      readonly type: 'stream';
      readonly steps: readonly FakeAnthropicStep[];
      /** Default `tool_use` when the reply has tool calls, else `end_turn`; null sends no message_delta. */
      readonly stopReason?: string | null;
      /** Default 10/5. */
      readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
    }
  | FakeErrorReply
  | FakeHangReply;

export type FakeAnthropicServer = FakeServer<FakeAnthropicReply>;

/** A streamed reply of these text chunks, one text_delta each. */
export function anthropicText(...chunks: string[]): FakeAnthropicReply {
  return { type: 'stream', steps: chunks.map((text) => ({ text })) };
}

export function startFakeAnthropicServer(
  script: readonly FakeAnthropicReply[] | ReplyHandler<FakeAnthropicReply> = [],
): Promise<FakeAnthropicServer> {
  return startFakeSseServer(createAnthropicProtocol(), script);
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function createAnthropicProtocol(): FakeProtocol<FakeAnthropicReply> {
  let messageCounter = 0;
  return {
    routes: /\/messages$/,
    errorBody: (status) => ({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message: `fake error ${status}` } }),
    async render(reply, stream, request) {
      if (reply.type !== 'stream') return;
      messageCounter += 1;
      const usage = reply.usage ?? { inputTokens: 10, outputTokens: 5 };
      const send = (type: string, data: object): void => stream.send({ type, ...data }, type);
      send('message_start', {
        message: {
          id: `msg_fake${messageCounter}`,
          type: 'message',
          role: 'assistant',
          content: [],
          model: typeof request.body?.model === 'string' ? request.body.model : 'fake-model',
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
        },
      });
      stream.send({ type: 'ping' }, 'ping');
      const blocks = new BlockWriter(stream);
      let toolCalls = 0;
      for (const step of reply.steps) {
        if (!stream.open) return;
        if ('text' in step) blocks.text(step.text);
        else if ('event' in step) stream.send(step.data, step.event);
        else if ('toolCall' in step) {
          toolCalls += 1;
          blocks.toolUse(step.toolCall.id ?? `toolu_fake${messageCounter}_${toolCalls}`, step.toolCall.name, step.toolCall.argumentChunks);
        } else if (!(await stream.control(step))) return;
      }
      blocks.close();
      const stopReason = reply.stopReason === undefined ? (toolCalls > 0 ? 'tool_use' : 'end_turn') : reply.stopReason;
      if (stopReason !== null) {
        send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.outputTokens } });
      }
      send('message_stop', {});
      stream.end();
    },
  };
}

/** Opens, fills and closes content blocks with increasing indexes. */
class BlockWriter {
  #index = -1;
  #open: 'text' | null = null;
  readonly #stream: FakeSseStream;

  constructor(stream: FakeSseStream) {
    this.#stream = stream;
  }

  text(text: string): void {
    if (this.#open !== 'text') {
      this.close();
      this.#start({ type: 'text', text: '' });
      this.#open = 'text';
    }
    this.#delta({ type: 'text_delta', text });
  }

  toolUse(id: string, name: string, argumentChunks: readonly string[]): void {
    this.close();
    this.#start({ type: 'tool_use', id, name, input: {} });
    for (const partial of ['', ...argumentChunks]) this.#delta({ type: 'input_json_delta', partial_json: partial });
    this.#stop();
  }

  close(): void {
    if (this.#open !== null) this.#stop();
  }

  #start(block: object): void {
    this.#index += 1;
    this.#stream.send({ type: 'content_block_start', index: this.#index, content_block: block }, 'content_block_start');
  }

  #delta(delta: object): void {
    this.#stream.send({ type: 'content_block_delta', index: this.#index, delta }, 'content_block_delta');
  }

  #stop(): void {
    this.#open = null;
    this.#stream.send({ type: 'content_block_stop', index: this.#index }, 'content_block_stop');
  }
}
