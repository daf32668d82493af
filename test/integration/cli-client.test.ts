// The CLI on the typed client (issue 13), as a CI job runs it, against a running service, configured by
// PORTCULLIS_URL/PORTCULLIS_TOKEN or --url/--token. The commands run in this process through the
// executable's own dispatch (runCliInProcess: its io, an environment of exactly the variables given);
// the tests of how the executable itself starts and exits spawn the built `portcullis` (`spawned`).
// Exit codes: 0 done (eval Pass), 1 failed (eval Fail), 2 bad usage, 3 refused or unreachable.
// Approvals are on (DESIGN §13), so gates are also routed to the default approver role.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, unwrap } from 'portcullis/client';
import { runCli, runCliInProcess } from '../helpers/cli-process.js';
import { ROLES, startLiveService, type LiveService } from '../helpers/live-service.js';
import { AGENT_MD, bundleZip } from './bundles-harness.js';

let live: LiveService;
let dir: string;
let env: Record<string, string>;

/** The built CLI in the test's folder, with only PATH and the given PORTCULLIS_* variables. */
const cli = (args: string[], extraEnv: Record<string, string> = env) => runCliInProcess(args, { cwd: dir, env: extraEnv });
/** The built executable, a process of its own (1–2 s apiece on an idle machine, 3–4 s on a busy one). */
const spawned = (args: string[], extraEnv: Record<string, string> = env) => runCli(args, { cwd: dir, env: extraEnv });

// The spawning tests start up to seven processes one after another: more than 20 s on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const GATED = {
  name: 'release',
  steps: [
    { name: 'add', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'calculator', operation: 'evaluate', parameters: { expression: '2+2' } } },
    { name: 'sign-off', type: 'HumanGate', configuration: { type: 'HumanGate', message: 'Release?' } },
  ],
  edges: [{ from: 'add', to: 'sign-off' }],
};

/** A gate whose Approve must carry `{ version: string }` (DESIGN §13 typed decisions). */
const TYPED = {
  name: 'typed-release',
  steps: [
    {
      name: 'pick-version',
      type: 'HumanGate',
      configuration: {
        type: 'HumanGate',
        message: 'Which version?',
        responseSchema: { type: 'object', required: ['version'], properties: { version: { type: 'string' } }, additionalProperties: false },
      },
    },
  ],
  edges: [],
};

/** The approval id in the hint `workflow run --watch` prints at a gate, and the run's job id from its first line. */
function parkedAt(watchedStdout: string): { jobId: string; approvalId: string } {
  const [, jobId] = /^run (\S+): /m.exec(watchedStdout)!;
  const [, approvalId] = /npx portcullis approvals decide (?:-- )?(\S+) approve/.exec(watchedStdout)!;
  return { jobId: jobId!, approvalId: approvalId! };
}

/** The run's status once it is `until`, or whatever it is after 15 s. */
async function runStatus(token: string, workflowId: string, jobId: string, until = 'Succeeded'): Promise<string> {
  const client = createClient({ baseUrl: live.url, token });
  let status = '';
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && status !== until; ) {
    const { data } = await client.api.GET('/api/workflows/{workflowId}/runs/{jobId}', { params: { path: { workflowId, jobId } } });
    status = data!.status;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return status;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-cli-client-'));
  const datasets = join(dir, 'datasets');
  await mkdir(datasets);
  await writeFile(join(datasets, 'greet.jsonl'), `${JSON.stringify({ id: 'hello', input: 'hello', assert: [{ type: 'contains', value: 'You said: hello' }] })}\n`);
  await writeFile(join(datasets, 'broken.jsonl'), `${JSON.stringify({ id: 'nope', input: 'hello', assert: [{ type: 'contains', value: 'never said' }] })}\n`);
  live = await startLiveService({ Evaluation: { DatasetRoots: [datasets] }, Approvals: { Enabled: true } });
  env = { PORTCULLIS_URL: live.url, PORTCULLIS_TOKEN: await live.token('ci-user') };
  await mkdir(join(dir, 'agent'));
  await writeFile(join(dir, 'agent', 'AGENT.md'), AGENT_MD);
  await writeFile(join(dir, 'release.json'), JSON.stringify(GATED));
  await writeFile(join(dir, 'typed-release.json'), JSON.stringify(TYPED));
  await writeFile(join(dir, 'broken.yaml'), 'name: broken\nsteps: []\n');
}, 60_000);
afterAll(async () => {
  await live.close();
  await rm(dir, { recursive: true, force: true });
});

describe('portcullis eval run', () => {
  it('waits for a passing run, writes the JUnit file and exits 0', async () => {
    const result = await spawned(['eval', 'run', 'greet', '--wait', '--junit', 'reports/evals.xml', '--repeats', '2', '--poll-interval', '20']);
    expect(result.stderr).toMatch(/eval run \S+ started/);
    expect(result.stdout).toMatch(/^verdict Pass: 2 passed, 0 warned, 0 failed, 0 errored of 2/);
    expect(result.code).toBe(0);
    expect(await readFile(join(dir, 'reports', 'evals.xml'), 'utf8')).toContain('<testsuite');
  });

  it('exits 1 on a Fail verdict, printing the poll body with --json', async () => {
    const result = await cli(['eval', 'run', 'broken', '--wait', '--json', '--poll-interval', '20']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'Succeeded', verdict: 'Fail', counts: { failed: 1, total: 1 } });
  });

  it('names each case that did not pass under the verdict, with the assertion that failed', async () => {
    const result = await cli(['eval', 'run', 'greet', 'broken', '--wait', '--poll-interval', '20']);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^verdict Fail: 1 passed, 0 warned, 1 failed, 0 errored of 2/);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^ {2}failed broken nope: contains: .*never said/)]);
  });

  it('prints plain progress lines when stderr is not a terminal', async () => {
    const result = await cli(['eval', 'run', 'greet', '--wait', '--repeats', '50', '--parallelism', '1', '--poll-interval', '1']);
    expect(result.code).toBe(0);
    // One plain line per change (no bar, no control characters), the last one where the run ended:
    // a fast run may finish before the first poll, so the Queued/Running lines are not guaranteed.
    const lines = result.stderr.trim().split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^(Queued|Running|Succeeded) \d+\/50$/);
    expect(lines.at(-1)).toBe('Succeeded 50/50');
  });

  it('starts without waiting and exits 0 with the job id', async () => {
    const result = await cli(['eval', 'run', 'greet', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ jobId: expect.any(String), statusUrl: expect.stringMatching(/^\/api\/evals\/runs\//) });
  });

  it('exits 3 when the service refuses (unknown dataset) or cannot be reached, 2 on bad usage', async () => {
    const refused = await spawned(['eval', 'run', 'greet', 'no-such-dataset', '--wait']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^portcullis eval run: no dataset named 'no-such-dataset'; the service has .*\bgreet\b.*\n.*the service refused: 404 Not found/);
    const unreachable = await spawned(['eval', 'run', 'greet', '--url', 'http://127.0.0.1:9', '--token', 'x']);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain('cannot reach the service at http://127.0.0.1:9');
    expect((await spawned(['eval', 'run'])).code).toBe(2);
    expect((await spawned(['eval', 'run', 'greet', '--repeats', 'many'])).code).toBe(2);
    expect((await spawned(['eval', 'run', 'greet', '--frobnicate'])).code).toBe(2);
  });

  it('takes --url and --token over the environment', async () => {
    const result = await spawned(['eval', 'run', 'greet', '--url', live.url, '--token', env.PORTCULLIS_TOKEN!], {});
    expect(result.code).toBe(0);
    expect((await spawned(['eval', 'run', 'greet'], { PORTCULLIS_URL: live.url })).code).toBe(3); // no token: 401
  });
});

describe('portcullis eval run for an agent\'s author (DESIGN §19)', () => {
  const DATASET = (value: string) => `cases:\n  - { id: hello, input: hello, assert: [{ type: contains, value: "${value}" }] }\n`;

  it('stores a local dataset file as mine/<name>, runs it as turns of the uploaded bundle, and exits 1 on a regression against the baseline', async () => {
    const form = new FormData();
    form.append('file', new Blob([bundleZip({ 'AGENT.md': AGENT_MD })]), 'helper.zip');
    const registered = await fetch(`${live.url}/api/bundles`, { method: 'POST', headers: { authorization: `Bearer ${env.PORTCULLIS_TOKEN}` }, body: form });
    expect(registered.status).toBe(201);
    const { handle } = (await registered.json()) as { handle: string };
    await writeFile(join(dir, 'smoke.yaml'), DATASET('You said: hello'));
    const first = await cli(['eval', 'run', '--dataset-file', 'smoke.yaml', '--subject-handle', handle, '--wait', '--json', '--poll-interval', '20']);
    expect(first.code, first.stderr).toBe(0);
    const baseline = JSON.parse(first.stdout) as { jobId: string; datasets: string[]; verdict: string };
    expect(baseline).toMatchObject({ datasets: ['mine/smoke@1'], verdict: 'Pass' });
    // The author's change makes the case fail: version 2 of the dataset, a regression against the first run.
    await writeFile(join(dir, 'smoke.yaml'), DATASET('never said'));
    const gated = await cli(['eval', 'run', '--dataset-file', 'smoke.yaml', '--subject-handle', handle, '--baseline', baseline.jobId, '--fail-on-regression', '--wait', '--poll-interval', '20']);
    expect(gated.stderr).toContain('stored smoke.yaml as mine/smoke@2');
    expect(gated.stdout).toContain(`against ${baseline.jobId}: 1 regressed, 0 improved, 0 unchanged`);
    expect(gated.stdout).toContain('regressed mine/smoke@2 hello: passed → failed');
    expect(gated.code).toBe(1);
  });

  it('exits 2 for --fail-on-regression without --baseline, and for a dataset file that does not parse; 3 for one the service refuses', async () => {
    expect((await cli(['eval', 'run', 'greet', '--fail-on-regression'])).code).toBe(2);
    await writeFile(join(dir, 'garbled.json'), '{ "cases": [');
    const garbled = await cli(['eval', 'run', '--dataset-file', 'garbled.json']);
    expect(garbled.code).toBe(2);
    expect(garbled.stderr).toContain('--dataset-file garbled.json: does not parse as JSON');
    await writeFile(join(dir, 'invalid.json'), JSON.stringify({ cases: [{ id: 'x' }] }));
    const invalid = await cli(['eval', 'run', '--dataset-file', 'invalid.json']);
    expect(invalid.code).toBe(3);
    expect(invalid.stderr).toContain('400');
  });
});

describe('portcullis bundle run with a model that cannot be reached', () => {
  it('says why the conversation failed and exits 1', async () => {
    const down = await startLiveService({ ChatModel: { Provider: 'OpenAI', Endpoint: 'http://127.0.0.1:9/v1', Model: 'gone', ApiKey: 'sk-test' } });
    try {
      const result = await cli(['bundle', 'run', 'agent', '--message', 'hello'], { PORTCULLIS_URL: down.url, PORTCULLIS_TOKEN: await down.token('ci-user') });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/run \S+ Succeeded: 1 turns, 0 tool calls/);
      expect(result.stderr).toMatch(/^portcullis bundle run: the conversation failed: \S.*/m);
    } finally {
      await down.close();
    }
  });
});

describe('portcullis workflow', () => {
  it('submits, runs with --watch up to the gate, approves, and the run finishes', async () => {
    const submitted = await cli(['workflow', 'submit', 'release.json', '--json']);
    expect(submitted.code).toBe(0);
    const workflowId = (JSON.parse(submitted.stdout) as { id: string }).id;

    const watched = await cli(['workflow', 'run', workflowId, '--watch', '--input', '{"version":"1.2"}']);
    expect(watched.code).toBe(0);
    expect(watched.stdout).toMatch(/add:? Succeeded/);
    const { jobId, approvalId } = parkedAt(watched.stdout);

    const approved = await cli(['workflow', 'approve', '--comment', 'ship it', '--', jobId, approvalId]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved ${approvalId}`);
    expect(await runStatus(env.PORTCULLIS_TOKEN!, workflowId, jobId)).toBe('Succeeded');
  });

  it('rejects, and a watched run that fails exits 1', async () => {
    const workflowId = (JSON.parse((await cli(['workflow', 'submit', 'release.json', '--json'])).stdout) as { id: string }).id;
    const { jobId, approvalId } = parkedAt((await cli(['workflow', 'run', workflowId, '--watch'])).stdout);
    const rejected = await cli(['workflow', 'reject', '--json', '--', jobId, approvalId]);
    expect(rejected.code).toBe(0);
    expect(JSON.parse(rejected.stdout)).toEqual({ approvalId, decision: 'Reject' });
    const again = await cli(['workflow', 'reject', '--', jobId, approvalId]);
    expect(again.code).toBe(3);
  });

  it('prints every diagnostic of a refused definition and exits 3', async () => {
    const result = await cli(['workflow', 'submit', 'broken.yaml']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the service refused: 400');
    expect(result.stderr).toMatch(/missing-field/);
  });
});

describe('portcullis approvals', () => {
  /** The run's owner and an approver (the default Approvals:ApproverRoles), each with a name the service shows. */
  let owner: Record<string, string>;
  let approver: Record<string, string>;
  beforeAll(async () => {
    owner = { PORTCULLIS_URL: live.url, PORTCULLIS_TOKEN: await live.idp.mintToken({ sub: 'release-owner', name: 'Rita Release', roles: ROLES }) };
    approver = { PORTCULLIS_URL: live.url, PORTCULLIS_TOKEN: await live.idp.mintToken({ sub: 'approver', name: 'Alex Approver', roles: ['Harness.Approvals.Decide'] }) };
  });

  /** Submits a definition as the owner and runs it with --watch up to its gate. */
  async function parkRun(file: string): Promise<{ workflowId: string; jobId: string; approvalId: string }> {
    const workflowId = (JSON.parse((await cli(['workflow', 'submit', file, '--json'], owner)).stdout) as { id: string }).id;
    const watched = await cli(['workflow', 'run', workflowId, '--watch'], owner);
    expect(watched.code).toBe(0);
    return { workflowId, ...parkedAt(watched.stdout) };
  }

  it('lists a pending gate approval to its owner: id, kind, status, step, who asked, time left (and as JSON)', async () => {
    const { approvalId } = await parkRun('release.json');
    const listed = await cli(['approvals', 'list'], owner);
    expect(listed.code).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(`${approvalId} `));
    expect(line).toMatch(/ HumanGate +Pending +step sign-off +requested by Rita Release +expires in (23h 59m|1d 0h)$/);
    const json = await cli(['approvals', 'list', '--json'], owner);
    expect((JSON.parse(json.stdout) as { approvals: unknown[] }).approvals).toContainEqual(
      expect.objectContaining({ approvalId, kind: 'HumanGate', status: 'Pending', stepName: 'sign-off', requestedBy: 'Rita Release' }),
    );
  });

  it('--to-decide lists the approvals routed to the caller’s approver role, not the caller’s own', async () => {
    const { approvalId } = await parkRun('release.json');
    const toDecide = await cli(['approvals', 'list', '--to-decide'], approver);
    expect(toDecide.code).toBe(0);
    expect(toDecide.stdout).toMatch(new RegExp(`^${approvalId} +HumanGate +Pending +step sign-off +requested by Rita Release`, 'm'));
    expect((await cli(['approvals', 'list'], approver)).stdout.trim()).toBe('no Pending approvals of your runs');
    expect((await cli(['approvals', 'list', '--to-decide'], owner)).stdout).not.toContain(approvalId);
  });

  it('decide approve prints the status and the run goes on; the same decision again is 0, a different one or an unknown id exits 3', async () => {
    const { workflowId, jobId, approvalId } = await parkRun('release.json');
    const approved = await cli(['approvals', 'decide', '--comment', 'ship it', '--', approvalId, 'approve'], approver);
    expect(approved.code).toBe(0);
    expect(approved.stdout.trim()).toBe(`approval ${approvalId} Approved (decided by Alex Approver)`);
    expect(await runStatus(owner.PORTCULLIS_TOKEN!, workflowId, jobId)).toBe('Succeeded');

    expect((await cli(['approvals', 'decide', '--', approvalId, 'approve'], approver)).code).toBe(0);
    const conflict = await cli(['approvals', 'decide', '--', approvalId, 'reject'], approver);
    expect(conflict.code).toBe(3);
    expect(conflict.stderr).toContain('the service refused: 409 Conflict: The approval is approved; it can no longer be decided that way.');
    const unknown = await cli(['approvals', 'decide', 'NoSuchApproval0000000000', 'approve'], approver);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('404');
    const decided = await cli(['approvals', 'list', '--status', 'approved'], owner);
    expect(decided.stdout).toMatch(new RegExp(`^${approvalId} +HumanGate +Approved .* decided by Alex Approver$`, 'm'));
  });

  it('decide approve with a payload the responseSchema refuses prints the violations and exits 3; a valid payload approves', async () => {
    // An approval id may begin with '-': it goes after '--', as the printed hint writes it.
    const { workflowId, jobId, approvalId } = await parkRun('typed-release.json');
    const refused = await cli(['approvals', 'decide', '--payload', '{"version":12}', '--', approvalId, 'approve'], owner);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('the service refused: 400');
    expect(refused.stderr.split('\n')).toContain('  payload/version must be string');
    expect((await cli(['approvals', 'decide', '--payload', '{version:12}', '--', approvalId, 'approve'], owner)).code).toBe(2);

    const approved = await cli(['approvals', 'decide', '--payload', '{"version":"1.2"}', '--json', '--', approvalId, 'approve'], owner);
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ approvalId, status: 'Approved', decision: { decision: 'Approve', payload: { version: '1.2' } } });
    expect(await runStatus(owner.PORTCULLIS_TOKEN!, workflowId, jobId)).toBe('Succeeded');
  });
});

describe('portcullis bundle run', () => {
  it('packs a folder, runs the conversation and prints the transcript with the tool call', async () => {
    const result = await cli(['bundle', 'run', 'agent', '--message', 'call calculator evaluate {"expression":"2+3"}', '--message', 'hello']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('user: hello');
    expect(result.stdout).toContain('tool call calculator {"operation":"evaluate","parameters":{"expression":"2+3"}}');
    expect(result.stdout).toMatch(/tool result calculator: .*5/);
    expect(result.stdout).toContain('assistant: You said: hello');
    expect(result.stdout).toMatch(/run \S+ Succeeded: 2 turns, 1 tool calls/);
  });

  it('streams live with --stream and answers JSON with --json', async () => {
    const streamed = await cli(['bundle', 'run', 'agent', '-m', 'hello', '--stream']);
    expect(streamed.code).toBe(0);
    expect(streamed.stdout).toContain('assistant: You said: hello\n');
    const json = await cli(['bundle', 'run', 'agent', '-m', 'hello', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ run: { status: 'Succeeded' }, transcript: ['user: hello', 'assistant: You said: hello'] });
  });

  it('keeps the uploaded handle with --keep and prints it; without it the handle is deleted', async () => {
    const kept = await cli(['bundle', 'run', 'agent', '-m', 'hello', '--keep']);
    expect(kept.code).toBe(0);
    const [, handle, expiresAt] = /^kept handle (\S+) until (\S+)$/m.exec(kept.stdout) ?? [];
    expect(Number.isNaN(Date.parse(expiresAt ?? ''))).toBe(false);
    const client = createClient({ baseUrl: live.url, token: env.PORTCULLIS_TOKEN! });
    // The handle still takes runs.
    expect(await unwrap(client.api.POST('/api/bundles/{handle}/runs', { params: { path: { handle: handle! } }, body: { userMessages: ['again'] } }))).toHaveProperty('jobId');
  });

  it('exits 3 for a folder the server would refuse, 2 without a message', async () => {
    await mkdir(join(dir, 'empty'), { recursive: true });
    const refused = await cli(['bundle', 'run', 'empty', '-m', 'hi']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/would refuse this bundle/);
    expect((await cli(['bundle', 'run', 'agent'])).code).toBe(2);
  });
});

describe('portcullis schedule', () => {
  /** A cron that does not fire while the tests run: 03:00 on 1 January. */
  const YEARLY = '0 3 1 1 *';

  /** Creates a schedule with `create --json` and returns it. */
  async function created(args: string[]): Promise<{ id: string; name: string; nextRunAt: string }> {
    const result = await cli(['schedule', 'create', ...args, '--json']);
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as { id: string; name: string; nextRunAt: string };
  }

  it('create with a workflow target prints the id, the next fire in UTC and in the zone, and the target; list shows it with its next fire', async () => {
    const workflowId = (JSON.parse((await cli(['workflow', 'submit', 'release.json', '--json'])).stdout) as { id: string }).id;
    const result = await cli(['schedule', 'create', 'new-year release', '--cron', YEARLY, '--time-zone', 'Europe/Paris', '--workflow', workflowId, '--input', '{"version":"1.2"}']);
    expect(result.code).toBe(0);
    const [first, next, target] = result.stdout.trim().split('\n');
    const [, id] = /^created schedule (\S+) \(new-year release\): 0 3 1 1 \* in Europe\/Paris$/.exec(first!)!;
    expect(next).toMatch(/^next fire: \d{4}-01-01T02:00:00\.000Z \(\d{4}-01-01 03:00:00 Europe\/Paris\)$/);
    expect(target).toBe(`target: workflow ${workflowId} input {"version":"1.2"}`);

    const listed = await cli(['schedule', 'list']);
    expect(listed.code).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(`${id!} `));
    expect(line).toMatch(new RegExp(` new-year release +0 3 1 1 \\* +Europe/Paris +enabled +next \\d{4}-01-01T02:00:00\\.000Z +workflow ${workflowId} input \\{"version":"1\\.2"\\}$`));
    const json = JSON.parse((await cli(['schedule', 'list', '--json'])).stdout) as { schedules: unknown[] };
    expect(json.schedules).toContainEqual(expect.objectContaining({ id, name: 'new-year release', timeZone: 'Europe/Paris', enabled: true }));
  });

  it('create with an eval target sends its datasets and options; --disabled creates it without a next fire', async () => {
    const schedule = await created(['nightly evals', '--cron', '@daily', '--eval', 'greet', '--eval', 'broken', '--repeats', '2', '--tag-filter', 'smoke', '--fail-rate-threshold', '0.5', '--disabled']);
    expect(schedule).toMatchObject({
      name: 'nightly evals',
      cron: '@daily',
      timeZone: 'UTC',
      enabled: false,
      nextRunAt: null,
      target: { eval: { datasets: ['greet', 'broken'], repeats: 2, tagFilter: ['smoke'], failRateThreshold: 0.5 } },
    });
    const line = (await cli(['schedule', 'list'])).stdout.split('\n').find((l) => l.startsWith(`${schedule.id} `));
    expect(line).toMatch(/ nightly evals +@daily +UTC +disabled +next - +eval greet broken \(repeats 2, tags smoke, fail-rate threshold 0\.5\)$/);
  });

  it('a bad cron prints the service’s 400 detail and exits 3', async () => {
    const result = await cli(['schedule', 'create', 'bad', '--cron', '* * * *', '--eval', 'greet']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the service refused: 400 Validation failed: cron must have five fields (minute hour day-of-month month day-of-week); it has 4.');
  });

  it('bad usage exits 2 before anything is sent: no --cron, both --workflow and --eval, an --input that is not JSON', async () => {
    const before = (await cli(['schedule', 'list'])).stdout;
    const noCron = await cli(['schedule', 'create', 'n', '--workflow', 'wf']);
    expect(noCron.code).toBe(2);
    expect(noCron.stderr).toContain('portcullis schedule create: --cron is needed');
    const both = await cli(['schedule', 'create', 'n', '--cron', YEARLY, '--workflow', 'wf', '--eval', 'greet']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('exactly one of --workflow and --eval is needed');
    const notJson = await cli(['schedule', 'create', 'n', '--cron', YEARLY, '--workflow', 'wf', '--input', '{version:1}']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--input must be a JSON object');
    expect((await cli(['schedule', 'list'])).stdout).toBe(before);
  });

  it('delete exits 0 and list no longer shows it; deleting it again is the service’s 404, exit 3', async () => {
    const { id } = await created(['short-lived', '--cron', YEARLY, '--eval', 'greet']);
    expect((await cli(['schedule', 'list'])).stdout).toContain(id);
    // A schedule id may begin with '-': it goes after '--'.
    const deleted = await cli(['schedule', 'delete', '--', id]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout.trim()).toBe(`deleted schedule ${id}`);
    expect((await cli(['schedule', 'list'])).stdout).not.toContain(id);
    const again = await cli(['schedule', 'delete', '--', id]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('the service refused: 404 Not found: Schedule not found.');
  });

  it('fires of a fresh schedule prints that there are none (and an empty list with --json)', async () => {
    const { id } = await created(['fresh', '--cron', YEARLY, '--eval', 'greet']);
    const fires = await cli(['schedule', 'fires', '--', id]);
    expect(fires.code).toBe(0);
    expect(fires.stdout.trim()).toBe(`no fires of schedule ${id} yet`);
    expect(JSON.parse((await cli(['schedule', 'fires', '--json', '--', id])).stdout)).toEqual({ fires: [], nextCursor: null });
  });
});

describe('help and version', () => {
  it.each([
    ['eval', '--help'],
    ['eval', 'run', '--help'],
    ['workflow', '--help'],
    ['workflow', 'submit', '--help'],
    ['workflow', 'run', '--help'],
    ['workflow', 'approve', '--help'],
    ['workflow', 'reject', '-h'],
    ['bundle', 'run', '--help'],
    ['approvals', '--help'],
    ['approvals', 'list', '--help'],
    ['approvals', 'decide', '--help'],
    ['schedule', '--help'],
    ['schedule', 'create', '--help'],
    ['schedule', 'list', '--help'],
    ['schedule', 'delete', '--help'],
    ['schedule', 'fires', '-h'],
    ['webhook', '--help'],
    ['webhook', 'create', '--help'],
    ['webhook', 'list', '--help'],
    ['webhook', 'deliveries', '--help'],
    ['webhook', 'test', '--help'],
    ['webhook', 'delete', '-h'],
  ])('portcullis %s %s … lists its options and exits 0', async (...args) => {
    const result = await cli(args, {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: portcullis /);
    if (args.length > 2 || args[0] === 'bundle') {
      expect(result.stdout).toContain('--url URL');
      expect(result.stdout).toContain('(default: false)');
    }
  });

  it('shows the defaults of eval run’s options', async () => {
    const help = (await cli(['eval', 'run', '--help'], {})).stdout;
    expect(help).toMatch(/--repeats N\s+Executions of every case\. \(default: 1\)/);
    expect(help).toMatch(/--parallelism N\s+.*\(default: 4\)/);
    expect(help).toMatch(/--poll-interval MS\s+.*\(default: 1000\)/);
    expect(help).toContain('exit codes: 0 done');
  });

  it('prints the usage of approvals decide with its options, and lists approvals in the top-level help', async () => {
    const help = (await cli(['approvals', 'decide', '--help'], {})).stdout;
    expect(help).toMatch(/^usage: portcullis approvals decide APPROVAL_ID approve\|reject \[options\]\n/);
    expect(help).toMatch(/--comment TEXT\s+A comment stored with the decision\./);
    expect(help).toMatch(/--payload JSON\s+The typed answer/);
    expect(help).toContain('exit codes: 0 done');
    expect((await cli(['approvals', 'list', '--help'], {})).stdout).toMatch(/--to-decide\s+.*\(default: false\)\n.*--status STATUS\s+.*\(default: Pending\)/);
    expect((await cli(['approvals', '--help'], {})).stdout).toContain('decide APPROVAL_ID approve|reject');
    expect((await cli(['--help'], {})).stdout).toContain('approvals list [--to-decide]');
  });

  it('prints the usage of schedule create with its options and defaults, and lists schedule in the top-level help', async () => {
    const help = (await cli(['schedule', 'create', '--help'], {})).stdout;
    expect(help).toMatch(/^usage: portcullis schedule create NAME \[options\]\n/);
    expect(help).toMatch(/--cron EXPR\s+Five fields/);
    expect(help).toMatch(/--time-zone ZONE\s+.*\(default: UTC\)/);
    expect(help).toMatch(/--eval DATASET\.\.\.\s+/);
    expect(help).toMatch(/--disabled\s+.*\(default: false\)/);
    expect(help).toContain('Exactly one of --workflow and --eval.');
    expect(help).toContain('exit codes: 0 done');
    const group = (await cli(['schedule', '--help'], {})).stdout;
    for (const sub of ['create NAME --cron EXPR', 'list', 'delete SCHEDULE_ID', 'fires SCHEDULE_ID']) expect(group).toContain(`  ${sub}`);
    expect((await cli(['--help'], {})).stdout).toContain('schedule create NAME --cron EXPR (--workflow ID | --eval DATASET...) | list | delete ID | fires ID');
  });

  it('lists webhook in the top-level help', async () => {
    expect((await cli(['--help'], {})).stdout).toContain('webhook create URL --event NAME... | list | deliveries ID | test ID | delete ID');
  });

  it('prints the package version with --version', async () => {
    const result = await cli(['--version'], {});
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('portcullis 2.0.0');
  });
});
