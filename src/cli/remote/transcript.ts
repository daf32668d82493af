// Turns a bundle run's AG-UI events into transcript lines: assistant text as it streams, each tool
// call with its arguments and its result (long results cut), and a run error. Writes through `emit`
// (whole lines) and `write` (partial text, for live output); keeps the lines for a final print.
import type { AguiEvent } from '../../client/index.js';

const MAX_RESULT_CHARS = 500;

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

export class Transcript {
  readonly lines: string[] = [];
  readonly #toolNames = new Map<string, string>();
  readonly #toolArgs = new Map<string, string>();
  #message: string | undefined;

  constructor(private readonly live?: { write(text: string): void }) {}

  user(message: string): void {
    this.#line(`user: ${message}`);
  }

  add(event: AguiEvent): void {
    const e = event as Record<string, unknown>;
    switch (String(event.type)) {
      case 'TEXT_MESSAGE_START':
        this.#message = '';
        this.live?.write('assistant: ');
        break;
      case 'TEXT_MESSAGE_CONTENT':
        this.#message = (this.#message ?? '') + text(e.delta);
        this.live?.write(text(e.delta));
        break;
      case 'TEXT_MESSAGE_END':
        this.lines.push(`assistant: ${this.#message ?? ''}`);
        this.live?.write('\n');
        this.#message = undefined;
        break;
      case 'TOOL_CALL_START':
        this.#toolNames.set(text(e.toolCallId), text(e.toolCallName));
        this.#toolArgs.set(text(e.toolCallId), '');
        break;
      case 'TOOL_CALL_ARGS':
        this.#toolArgs.set(text(e.toolCallId), (this.#toolArgs.get(text(e.toolCallId)) ?? '') + text(e.delta));
        break;
      case 'TOOL_CALL_END':
        this.#line(`tool call ${this.#toolNames.get(text(e.toolCallId)) ?? '?'} ${this.#toolArgs.get(text(e.toolCallId)) ?? ''}`);
        break;
      case 'TOOL_CALL_RESULT': {
        const content = typeof e.content === 'string' ? e.content : JSON.stringify(e.content);
        const cut = content.length > MAX_RESULT_CHARS ? `${content.slice(0, MAX_RESULT_CHARS)}…` : content;
        this.#line(`tool result ${this.#toolNames.get(text(e.toolCallId)) ?? '?'}: ${cut}`);
        break;
      }
      case 'RUN_ERROR':
        this.#line(`run error: ${text(e.message)}`);
        break;
      default:
        break;
    }
  }

  #line(text: string): void {
    this.lines.push(text);
    this.live?.write(`${text}\n`);
  }
}
