// A bundle stream client that stops reading (issue 9, point 7): once more than 1 MiB waits unsent
// the client is dropped, and the run ends Failed with its own caller-safe error (not "The run was
// cancelled."). The client is a raw socket that never reads; the model is a real OpenAI-compatible
// server on loopback streaming 12 MiB of text, held after its first chunk until the stream client has
// received its first bytes, and never finishing after it (the stream reaches the client after the model
// wrote it, so a model that finished could end the run Succeeded before the drop on a busy machine):
// the run can only end by the drop. Memory is sampled while it runs.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';
import { startRssProbe } from '../helpers/rss-probe.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, poll, registerHandle, startRun } from './bundles-harness.js';

let base: string;
let fake: FakeOpenAIServer;
let t: TestApp;
let port: number;
let clientAttached: () => void;
const attached = new Promise<void>((resolve) => (clientAttached = resolve));

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-slow-reader-'));
  const chunk = 'w'.repeat(64 * 1024);
  fake = await startFakeOpenAIServer(() => ({
    type: 'stream',
    steps: [{ text: 'w' }, { until: attached }, ...Array.from({ length: 192 }, () => ({ text: chunk })), { hang: true }],
  }));
  t = await buildTestApp({ settings: bundleSettings(join(base, 'root'), { ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'fake', ApiKey: 'sk-test' } }) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await rm(base, { recursive: true, force: true });
});

describe('a stream client that stops reading', () => {
  it('is dropped and the run fails with its own caller-safe error', async () => {
    const handle = await registerHandle(t.app);
    const { jobId, streamUrl } = (await startRun(t.app, handle, { userMessages: ['talk a lot'], stream: true })).json<{ jobId: string; streamUrl: string }>();
    const probe = startRssProbe();
    const socket: Socket = connect(port, '127.0.0.1');
    try {
      socket.on('error', () => undefined);
      // Reads the first bytes (the stream is attached), then never again: the kernel buffers fill,
      // then the server's.
      socket.once('data', () => {
        socket.pause();
        clientAttached();
      });
      socket.write(`GET ${streamUrl} HTTP/1.1\r\nHost: x\r\n\r\n`);
      let run: Record<string, unknown> = {};
      for (let attempt = 0; attempt < 20_000 && run.status !== 'Failed' && run.status !== 'Succeeded'; attempt += 1) {
        run = (await poll(t.app, handle, jobId)).json();
        probe.sample();
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(run).toMatchObject({ status: 'Failed', error: 'The stream client stopped reading, so the stream was dropped and the run stopped.' });
      expect(probe.peakGrowthMiB()).toBeLessThan(200);
    } finally {
      probe.stop();
      socket.destroy();
    }
  });
});
