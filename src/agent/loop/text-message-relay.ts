// Relays one model step's text to the stream as one assistant message: redacted through a
// StreamRedactor (a secret split across deltas never shows), started lazily on the first non-empty
// redacted chunk, never an empty delta, ended once. A step without text emits no message frames.
import type { IdGenerator } from '../../platform/clock/index.js';
import { StreamRedactor } from '../../platform/redaction/index.js';
import type { AgentEvent } from './agent-event.js';

export class TextMessageRelay {
  readonly #emit: (event: AgentEvent) => void;
  readonly #ids: IdGenerator;
  readonly #redactor = new StreamRedactor();
  #messageId: string | undefined;
  #text = '';
  #ended = false;

  constructor(emit: (event: AgentEvent) => void, ids: IdGenerator) {
    this.#emit = emit;
    this.#ids = ids;
  }

  /** The message's id once it has started (it stays readable after the end). */
  get messageId(): string | undefined {
    return this.#messageId;
  }

  /** The redacted text relayed so far: exactly what the stream carried. */
  get text(): string {
    return this.#text;
  }

  push(delta: string): void {
    if (this.#ended) throw new Error('TextMessageRelay: push after end');
    if (delta !== '') this.#send(this.#redactor.push(delta));
  }

  /** Relays the held-back tail and closes the message if one started. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#send(this.#redactor.flush());
    this.#ended = true;
    if (this.#messageId !== undefined) this.#emit({ type: 'TEXT_MESSAGE_END', messageId: this.#messageId });
  }

  #send(chunk: string): void {
    if (chunk === '') return;
    if (this.#messageId === undefined) {
      this.#messageId = this.#ids.opaque();
      this.#emit({ type: 'TEXT_MESSAGE_START', messageId: this.#messageId, role: 'assistant' });
    }
    this.#text += chunk;
    this.#emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: this.#messageId, delta: chunk });
  }
}
