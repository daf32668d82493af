// The example bundles work as shipped: packed by the CLI's zipper, uploaded to a host running the
// checked-in Development settings (`npm start`: anonymous, Scripted model, handbook index), and
// streamed, each using what its AGENT.md asks for and denied what it does not, and each doing its one
// job when asked the question examples/bundles/README.md suggests (the Scripted model's built-in rules).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_AGENT_RULES } from '../../src/models/scripted/example-agent-rules.js';
import { hereDocument } from '../helpers/readme-blocks.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { listen, type Frame } from './bundles-harness.js';
import { answerOf, developmentSettings, REPO, resultOf, streamExample, toolsCalled } from './example-bundles-harness.js';

let dir: string;
let t: TestApp;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-bundles-examples-'));
  t = await buildTestApp({ environment: 'Development', settings: await developmentSettings(dir) });
  url = await listen(t.app);
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const run = (example: string, message: string): Promise<Frame[]> => streamExample(t.app, url, dir, example, message);

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

/** The "Ask it" column of examples/bundles/README.md's table, by folder. */
async function demoQuestions(): Promise<Map<string, string>> {
  const readme = await readFile(join(REPO, 'examples/bundles/README.md'), 'utf8');
  return new Map([...readme.matchAll(/^\| `([\w-]+)` \|.*\| `([^`]+)` \|$/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('example bundles answer their README demo question offline', () => {
  it('lists a demo question for every example folder', async () => {
    expect([...(await demoQuestions()).keys()].sort()).toEqual(['handbook-guide', 'triage-desk', 'trip-timer']);
  });

  it('trip-timer asked the time calls clock and answers with the time it read', async () => {
    const frames = await run('trip-timer', (await demoQuestions()).get('trip-timer')!);
    expect(toolsCalled(frames)).toEqual(['clock']);
    const { local, timeZone } = JSON.parse(resultOf(frames)!) as { local: string; timeZone: string };
    expect(timeZone).toBe('Asia/Tokyo');
    expect(answerOf(frames)).toContain(local);
    expect(frames.at(-1)!.type).toBe('RUN_FINISHED');
  });

  it('handbook-guide searches the handbook and answers from the page it found', async () => {
    const frames = await run('handbook-guide', (await demoQuestions()).get('handbook-guide')!);
    expect(toolsCalled(frames)).toEqual(['knowledge']);
    expect(resultOf(frames)).toContain('rate-limits');
    expect(answerOf(frames)).toContain('Retry-After');
  });

  it('triage-desk grades the ticket and drafts a first reply without tools', async () => {
    const frames = await run('triage-desk', (await demoQuestions()).get('triage-desk')!);
    expect(toolsCalled(frames)).toEqual([]);
    expect(answerOf(frames)).toMatch(/^Severity: S1 [\s\S]*First reply: "Thank you for the report\./);
  });

  it("trip-timer answers the README Bundles walkthrough's streamed question with a clock conversion", async () => {
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const question = /"userMessages":\["(What time is [^"]+)"\],"stream":true/.exec(readme)![1]!;
    const frames = await run('trip-timer', question);
    expect(toolsCalled(frames)).toEqual(['clock']);
    expect(JSON.parse(resultOf(frames)!)).toMatchObject({ timeZone: 'America/New_York', local: '2026-03-29T03:00:00.000-04:00' });
  });

  it("leaves the shipped eval datasets' and the README dataset's inputs to the echo and `call`", async () => {
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const documents = [hereDocument(readme, '### 7. Write a dataset', '.portcullis/my-evals/support.yaml')];
    for (const file of await readdir(join(REPO, 'examples/evals'))) documents.push(await readFile(join(REPO, 'examples/evals', file), 'utf8'));
    const inputs = documents.flatMap((text) => [...text.matchAll(/"?input"?:\s*"?([^"\n]+)/g)].map((m) => m[1]!.trim()));
    expect(inputs.length).toBeGreaterThan(10);
    expect(inputs.filter((input) => EXAMPLE_AGENT_RULES.some((rule) => rule.when.test(input)))).toEqual([]);
  });
});
