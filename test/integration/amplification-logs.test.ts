// Log amplification by content (issue 9): whatever a caller manages to get into a log line is cut
// at AppConfig:Logging:MaxStringLength, after redaction and with the cut marked. The route in is a
// bundle run whose model asks for an http_fetch call with a 900 KB header name: the parameter
// validator names the offending field, the caller's stream only says "The tool call failed.", and
// the failure detail goes to the log. The app logs to a captured destination; memory is sampled.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log/index.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';
import { captureLog } from '../helpers/log-capture.js';
import { startRssProbe } from '../helpers/rss-probe.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, registerHandle, settled, startJob } from './bundles-harness.js';

const { lines, destination } = captureLog();
let base: string;
let fake: FakeOpenAIServer;
let t: TestApp;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-amplification-logs-'));
  const loud = JSON.stringify({ operation: 'get', parameters: { url: 'http://127.0.0.1:9/', headers: { [`X-${'n'.repeat(900_000)}`]: 5 } } });
  let call = 0;
  fake = await startFakeOpenAIServer(() =>
    ++call % 2 === 1 ? { type: 'stream', steps: [{ toolCall: { name: 'http_fetch', argumentChunks: [loud] } }] } : { type: 'stream', steps: [{ text: 'done' }] },
  );
  const logger = createLogger({ level: 'info', maxStringLength: 8192, destination });
  t = await buildTestApp({
    settings: bundleSettings(join(base, 'root'), {
      ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'fake', ApiKey: 'sk-test' },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['http_fetch'], AutonomyCeiling: 'Autonomous' } } },
    }),
    deps: { logger },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await rm(base, { recursive: true, force: true });
});

describe('log amplification', () => {
  it('writes no log line carrying megabytes of caller content', async () => {
    const handle = await registerHandle(t.app);
    const probe = startRssProbe();
    try {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        lines.length = 0;
        const run = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['fetch it'] }));
        probe.sample();
        expect(run).toMatchObject({ status: 'Succeeded', result: { totalToolInvocations: 1 } });
        const failure = lines.find((line) => (line.includes('tool call failed') || line.includes('tool call refused')) && line.includes('"surface":"bundle"'));
        expect(failure).toContain('more characters]');
        expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(32 * 1024);
      }
      expect(probe.peakGrowthMiB()).toBeLessThan(150);
    } finally {
      probe.stop();
    }
  });
});
