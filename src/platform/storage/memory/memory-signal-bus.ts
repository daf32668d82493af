// SignalBus for one process: handlers of a topic are called on a later microtask, never inside publish.
import { assertSignalMessage, type SignalBus, type SignalHandler } from '../signal-bus.js';

export class MemorySignalBus implements SignalBus {
  readonly #topics = new Map<string, Set<SignalHandler>>();

  async publish(topic: string, message: string): Promise<void> {
    assertSignalMessage(message);
    for (const handler of [...(this.#topics.get(topic) ?? [])]) queueMicrotask(() => handler(message));
  }

  subscribe(topic: string, handler: SignalHandler): () => void {
    let handlers = this.#topics.get(topic);
    if (handlers === undefined) this.#topics.set(topic, (handlers = new Set()));
    handlers.add(handler);
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.#topics.get(topic) === handlers) this.#topics.delete(topic);
    };
  }
}
