// The example bundles work as shipped: packed by the CLI's zipper, uploaded to a host running the
// checked-in Development settings (`npm start`: anonymous, Scripted model, handbook index), and
// streamed, each using what its AGENT.md asks for and denied what it does not.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipFolder } from '../../src/cli/bundle-pack/index.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { listen, readVerifiedStream, registerHandle, startRun, type Frame } from './bundles-harness.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let t: TestApp;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-bundles-examples-'));
  const development = JSON.parse(await readFile(join(repo, 'appsettings.Development.json'), 'utf8')) as Record<string, unknown>;
  const settings = merge(development, {
    AppConfig: {
      AI: {
        BundleExecution: { TempRoot: join(dir, 'staging') },
        Retrieval: { Indexes: { handbook: { Root: join(repo, 'examples/knowledge') } } },
        Evaluation: { DatasetRoots: [join(repo, 'examples/evals')] },
      },
    },
  });
  t = await buildTestApp({ environment: 'Development', settings });
  url = await listen(t.app);
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(example: string, message: string): Promise<Frame[]> {
  const zip = join(dir, `${example}.zip`);
  await zipFolder(join(repo, 'examples/bundles', example), zip);
  const handle = await registerHandle(t.app, {}, await readFile(zip));
  const started = await startRun(t.app, handle, { userMessages: [message], stream: true });
  expect(started.statusCode).toBe(202);
  return readVerifiedStream(`${url}${started.json<{ streamUrl: string }>().streamUrl}`);
}

const resultOf = (frames: Frame[]): string | undefined => frames.find((f) => f.type === 'TOOL_CALL_RESULT')?.content;

describe('example bundles under the Development settings', () => {
  it('trip-timer converts a time with the clock tool', async () => {
    const frames = await run('trip-timer', 'call clock convert {"time":"2026-03-29T09:00:00","from":"Europe/Berlin","to":"America/New_York"}');
    expect(resultOf(frames)).toContain('America/New_York');
    expect(frames.at(-1)!.type).toBe('RUN_FINISHED');
  });

  it('handbook-guide searches the handbook index with the knowledge tool', async () => {
    const frames = await run('handbook-guide', 'call knowledge search {"index":"handbook","query":"stream reservation"}');
    expect(resultOf(frames)).toContain('streams');
  });

  it('triage-desk has no tools: a tool call is denied and the run goes on', async () => {
    const frames = await run('triage-desk', 'call calculator evaluate {"expression":"1+1"}');
    expect(resultOf(frames)).toBe('Tool call denied by policy.');
    expect(frames.at(-1)!.type).toBe('RUN_FINISHED');
  });
});
