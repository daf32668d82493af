// An HTTP server on loopback that answers nothing until told to: what an http_fetch call waits on
// when a test needs tool calls that stay executing (concurrency slots, deadlines, cancellation).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HangingServer {
  /** A URL on it (`http://127.0.0.1:PORT/slow`). */
  readonly url: string;
  /** How many requests are waiting for an answer. */
  waiting(): number;
  /** Answers every waiting request. */
  releaseAll(): void;
  close(): Promise<void>;
}

export async function startHangingServer(): Promise<HangingServer> {
  const held: Array<() => void> = [];
  const server = createServer((_request, response) => void held.push(() => response.end('done')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const releaseAll = (): void => {
    for (const release of held.splice(0)) release();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    waiting: () => held.length,
    releaseAll,
    close: async () => {
      releaseAll();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
