// The storage port's wake-ups between instances: a small message on a topic reaches every subscriber on
// every instance sharing the storage (in process for Memory; LISTEN/NOTIFY for PostgreSQL). Messages
// are hints that something changed ("approval decided", "cancel requested"), never the data itself:
// receivers read the records. Delivery is at most once and may be late; nothing relies on it alone.

export const MAX_SIGNAL_MESSAGE_LENGTH = 1_000;

/** Both providers refuse a longer message alike (a NOTIFY payload is bounded). */
export function assertSignalMessage(message: string): void {
  if (message.length > MAX_SIGNAL_MESSAGE_LENGTH) throw new RangeError(`a signal message is at most ${MAX_SIGNAL_MESSAGE_LENGTH} characters`);
}

export type SignalHandler = (message: string) => void;

export interface SignalBus {
  /** `message` at most 1,000 characters (RangeError beyond). */
  publish(topic: string, message: string): Promise<void>;
  /** Returns the unsubscribe. */
  subscribe(topic: string, handler: SignalHandler): () => void;
}
