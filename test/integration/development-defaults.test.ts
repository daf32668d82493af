// `npm start` does what the quickstart promises: the checked-in Development settings, loaded exactly
// as `portcullis serve` loads them from the repository root, let the anonymous caller invoke tools
// and start evals, survive a walkthrough's worth of uploads, and run the README's own example dataset
// under the offline Scripted model without an errored case.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { hereDocument } from '../helpers/readme-blocks.js';
import type { TestApp } from '../helpers/test-app.js';
import { bundleZip, register } from './bundles-harness.js';
import { runToEnd } from './evals-harness.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let t: TestApp;

/** The README's dataset of "Write a dataset": the file its block writes. */
async function readmeDataset(): Promise<string> {
  return hereDocument(await readFile(join(repo, 'README.md'), 'utf8'), '### 7. Write a dataset', '.portcullis/my-evals/support.yaml');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-development-'));
  await writeFile(join(dir, 'support.yaml'), await readmeDataset());
  const loaded = loadConfig({
    cwd: repo,
    env: {
      PORTCULLIS_ENVIRONMENT: 'Development',
      AppConfig__AI__BundleExecution__TempRoot: join(dir, 'staging'),
      // What the README tells a user to do: a second dataset root beside the shipped one.
      AppConfig__AI__Evaluation__DatasetRoots__1: dir,
      // The poll loop below asks as fast as the event loop turns.
      'AppConfig__AI__RateLimits__evals-read__PermitsPerMinute': '1000000',
    },
    configFiles: [],
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const { app, reload } = await buildApp({ config: loaded.config, logger: createLogger({ level: 'silent' }) });
  await app.ready();
  t = { app, config: loaded.config, dir, reload, close: () => app.close() };
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the Development settings of npm start', () => {
  it('let the anonymous caller invoke a tool directly', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tools/clock/invoke',
      headers: { 'content-type': 'application/json' },
      payload: { operation: 'now', parameters: { timeZone: 'Europe/Paris' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tool: 'clock', succeeded: true });
  });

  it('allow more uploads a minute than a walkthrough needs', async () => {
    for (let i = 0; i < 30; i += 1) expect((await register(t.app, {}, bundleZip())).statusCode).toBe(201);
  });

  it('run the README example dataset under the Scripted model with no errored case', async () => {
    const body = await runToEnd(t, {}, { datasets: ['support', 'tool-use'] });
    expect(body).toMatchObject({ status: 'Succeeded', datasets: ['support', 'tool-use'] });
    expect(body.report.byDataset[0]).toEqual({ name: 'support', passed: 1, failed: 2, warned: 0, errored: 0 });
  });
});
