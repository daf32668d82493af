// The README's "Integrating" walkthrough runs as written. Its shell blocks are taken from README.md and
// run as a reader types them: terminal 1's (`npm start` with the webhook setting) in a process of its
// own, the others one after another in one bash session, where the shipped receiver runs in the
// background. Only ports change (PORT and PORTCULLIS_URL for the service, the receiver's 9000), and
// `npx portcullis` is the built CLI it resolves to (a first npx in a fresh checkout installs the package
// into its cache, which a test cannot wait for). The receiver must print a verified eval.run.finished and
// refuse the README's forged request and a genuinely signed one whose body was altered.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli-process.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/free-port.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SECTION = '\n## Integrating';

/** The ```sh blocks of the README's Integrating section, in order. */
async function integratingBlocks(): Promise<string[]> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf(SECTION);
  if (start === -1) throw new Error('README.md has no Integrating section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + SECTION.length));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** A shell session: blocks are typed into its stdin; everything it and its background jobs print is kept in `output`. */
class Terminal {
  readonly #child: ChildProcess;
  readonly #exit: Promise<void>;
  output = '';
  #exited = false;

  constructor(args: string[], env: Record<string, string>) {
    // Its own process group, so a background job or npm's child is stopped with it.
    this.#child = spawn('bash', args, { cwd: REPO, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? REPO, ...env }, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer): void => void (this.output += chunk.toString('utf8'));
    this.#child.stdout!.on('data', keep);
    this.#child.stderr!.on('data', keep);
    this.#exit = new Promise((resolve) =>
      this.#child.once('exit', () => {
        this.#exited = true;
        resolve();
      }),
    );
  }

  /** Types a block and waits until the shell has run all of it. */
  async type(block: string, timeoutMs = 15_000): Promise<void> {
    const done = `<<block done ${Math.random()}>>`;
    this.#child.stdin!.write(`${block}\necho '${done}'\n`);
    await this.until(new RegExp(done.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), timeoutMs);
  }

  /** Waits until the output matches `pattern` (a background job prints when it prints); fails at once when the shell exits. */
  async until(pattern: RegExp, timeoutMs = 10_000): Promise<void> {
    const seen = await eventually(async () => (pattern.test(this.output) ? true : this.#exited ? false : undefined), timeoutMs).catch(() => false);
    if (!seen) throw new Error(`no ${pattern} (within ${timeoutMs} ms, or before the shell exited); the terminal shows:\n${this.output}`);
  }

  /** Signals the whole process group and waits for the shell to exit. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    if (this.#exited || this.#child.pid === undefined) return;
    process.kill(-this.#child.pid, signal);
    await this.#exit;
  }
}

/** What a reader waits to see before the next block, when a block's result is printed in the background. */
const PRINTED_IN_THE_BACKGROUND: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/webhook-receiver\.mjs/, /^receiver listening on http:\/\/127\.0\.0\.1:\d+\/hooks$/m],
  [/webhook test/, /^verified webhook\.test msg_\S+ webhookId=\S+$/m],
  [/eval run/, /^verified eval\.run\.finished msg_\S+ jobId=\S+ status=Succeeded verdict=Pass$/m],
];

describe('README Integrating: a nightly eval that posts a signed webhook', () => {
  let blocks: string[];
  let servicePort: number;
  let receiverPort: number;
  let service: Terminal;
  let session: Terminal;

  beforeAll(async () => {
    blocks = await integratingBlocks();
    [servicePort, receiverPort] = [await freePort(), await freePort()];
  });
  afterAll(async () => {
    await session?.stop('SIGKILL');
    await service?.stop('SIGTERM');
  });

  it('serves, subscribes, schedules, runs the eval now, and the shipped receiver prints it verified and refuses forgeries', async () => {
    const [serve, ...typed] = blocks;
    expect(serve).toContain('npm start');
    expect(typed).toHaveLength(7);
    service = new Terminal(['-c', serve!], { PORT: String(servicePort) });
    await service.until(new RegExp(`^listening on http://127\\.0\\.0\\.1:${servicePort}$`, 'm'), 15_000);

    session = new Terminal([], { PORTCULLIS_URL: `http://127.0.0.1:${servicePort}` });
    const asRun = (block: string): string => block.replaceAll('npx portcullis ', `node '${CLI}' `).replace(/\b9000\b/g, String(receiverPort));
    const cleanUp = typed.at(-1)!;
    expect(cleanUp).toContain('kill %1');
    for (const block of typed.slice(0, -1)) {
      await session.type(asRun(block));
      for (const [typedBlock, printed] of PRINTED_IN_THE_BACKGROUND) if (typedBlock.test(block)) await session.until(printed);
    }

    const out = session.output;
    const [, webhookId] = /^created webhook (\S+): http:\/\/127\.0\.0\.1:\d+\/hooks$/m.exec(out)!;
    const [, secret] = /^secret: (whsec_\S+)$/m.exec(out)!;
    expect(out.split(secret!)).toHaveLength(2);
    expect(out).toContain('events: eval.run.finished schedule.fired schedule.failed\n');
    expect(out).toMatch(/^created schedule \S+ \(nightly evals\): 0 2 \* \* \* in Europe\/Paris\nnext fire: \S+T0[01]:00:00\.000Z \(\S+ 02:00:00 Europe\/Paris\)\ntarget: eval tool-use$/m);
    expect(out).toMatch(/^verdict Pass: 6 passed, 0 warned, 0 failed, 0 errored of 6/m);
    expect(out).toMatch(/^eval\.run\.finished {2}attempt 1 {2}Delivered {2}HTTP 204 /m);
    expect(out).toMatch(/^refused \(401\): No matching signature found\n401$/m);
    expect(out).toContain(`webhookId=${webhookId!}`);

    // A request signed with the secret is accepted as sent and refused once its body is altered.
    const body = JSON.stringify({ type: 'eval.run.finished', timestamp: new Date().toISOString(), data: { jobId: 'J1', status: 'Succeeded', verdict: 'Fail', url: '/api/evals/runs/J1' } });
    const signedAt = new Date();
    const signature = new Webhook(secret!).sign('msg_signed', signedAt, body);
    const send = (sent: string): Promise<Response> =>
      fetch(`http://127.0.0.1:${receiverPort}/hooks`, {
        method: 'POST',
        body: sent,
        headers: { 'content-type': 'application/json', 'webhook-id': 'msg_signed', 'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)), 'webhook-signature': signature },
      });
    expect((await send(body.replace('"Fail"', '"Pass"'))).status).toBe(401);
    expect((await send(body)).status).toBe(204);
    await session.until(/^verified eval\.run\.finished msg_signed jobId=J1 status=Succeeded verdict=Fail$/m);
    expect(session.output.match(/^refused \(401\)/gm)).toHaveLength(2);
    expect(session.output).not.toMatch(/msg_signed .*verdict=Pass/);

    await session.type(asRun(cleanUp));
    expect(session.output).toContain(`deleted webhook ${webhookId!}\n`);
  }, 30_000);
});
