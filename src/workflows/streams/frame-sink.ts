// Where a progress stream writes: framed SSE with `id:` lines, a way to wait until the transport can
// take more, and a signal that aborts when the client goes away. Kept free of the HTTP framework.
import type { ProgressFrame } from '../events.js';

export interface FrameSink {
  readonly signal: AbortSignal;
  /** Writes one frame with its `id:`; false once the stream has ended. */
  send(frame: ProgressFrame, id: number): boolean;
  /** Resolves when the transport has drained enough to take more, or the stream ended. */
  writable(): Promise<void>;
  close(): void;
}
