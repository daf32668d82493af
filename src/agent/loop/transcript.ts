// The messages a run adds to the conversation, kept twice: as the model sees them during this run
// (its own text and the user's as written) and as they are stored and replayed later (redacted).
// Tool results are identical in both: the model only ever sees redacted tool output.
import type { ChatMessage } from '../../models/index.js';

export class Transcript {
  readonly #live: ChatMessage[] = [];
  readonly #stored: ChatMessage[] = [];

  add(live: ChatMessage, stored: ChatMessage = live): void {
    this.#live.push(live);
    this.#stored.push(stored);
  }

  /** What the model is sent after the system prompt and history. */
  get live(): readonly ChatMessage[] {
    return this.#live;
  }

  /** A copy of the redacted messages, for the conversation store. */
  stored(): ChatMessage[] {
    return [...this.#stored];
  }
}
