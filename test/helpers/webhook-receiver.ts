// A webhook receiver on loopback for the tests: records every request (headers and body as sent) and
// answers each with the next scripted reply (default 200), so a test can play a failing, redirecting
// or slow destination.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface Reply {
  readonly status: number;
  readonly headers?: Record<string, string>;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedWebhook[];
  /** Replies for the next requests, in order; after them, 200. */
  script(...replies: Reply[]): void;
  /** Records requests but answers none until release() (a destination that hangs). */
  hold(): void;
  /** Answers every held request (200) and stops holding. */
  release(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const replies: Reply[] = [];
  let held: Array<() => void> | null = null;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = (): void => {
        const reply = replies.shift() ?? { status: 200 };
        if (!response.destroyed) response.writeHead(reply.status, reply.headers ?? {}).end('ok');
      };
      if (held === null) answer();
      else held.push(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    script: (...next) => void replies.push(...next),
    hold: () => void (held ??= []),
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const answer of waiting) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
