// The README's "Integrating" walkthrough runs as written, on a fresh clone, through the markers of
// its blocks like every walkthrough (readme-runnable.test.ts has the convention): terminal 1's
// `npm start` with the webhook setting, then terminal 2, where the shipped receiver runs in the
// background. Beyond what the markers check, the receiver must print a verified eval.run.finished
// naming the webhook, refuse the README's forged request, accept a request genuinely signed with the
// secret the create answered (`--json`, read with jq) and refuse it once its body is altered; the secret
// is printed once.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClone, type FreshClone } from '../helpers/fresh-clone.js';
import { walkthroughs } from '../helpers/readme-blocks.js';
import { Walkthrough } from '../helpers/readme-walkthrough.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SESSION = 'Integrating: a nightly eval that posts a signed webhook';

let clone: FreshClone;
let walkthrough: Walkthrough | undefined;

beforeAll(async () => {
  clone = await freshClone(REPO);
  const blocks = walkthroughs(execFileSync('git', ['show', 'HEAD:README.md'], { cwd: REPO, encoding: 'utf8' })).get(SESSION);
  if (blocks === undefined) throw new Error(`README.md has no runnable blocks in "${SESSION}"`);
  walkthrough = await Walkthrough.start(SESSION, blocks, { cwd: clone.dir, scratch: join(clone.scratch, 'walkthrough'), env: clone.env });
}, 120_000);
afterAll(async () => {
  await walkthrough?.stop();
  await clone?.remove();
});

describe('README Integrating: a nightly eval that posts a signed webhook', () => {
  it('serves, subscribes, schedules, runs the eval now, and the shipped receiver prints it verified and refuses forgeries', async () => {
    const blocks = walkthrough!.blocks;
    const cleanUp = blocks.at(-1)!;
    expect(cleanUp.commands[0]!.text).toContain('kill %1');
    for (const block of blocks.slice(0, -1)) await walkthrough!.run(block);

    const out = walkthrough!.output('2');
    const [, webhookId] = /^\{"id":"([^"]+)","url":"http:\/\/127\.0\.0\.1:\d+\/hooks"/m.exec(out)!;
    const [, secret] = /"secret":"(whsec_[^"]+)"/.exec(out)!;
    expect(out.split(secret!)).toHaveLength(2);
    expect(out).toMatch(/^created schedule \S+ \(nightly evals\): 0 2 \* \* \* in Europe\/Paris\nnext fire: \S+T0[01]:00:00\.000Z \(\S+ 02:00:00 Europe\/Paris\)\ntarget: eval tool-use$/m);
    expect(out).toMatch(/^verified eval\.run\.finished msg_\S+ jobId=\S+ status=Succeeded verdict=Pass$/m);
    expect(out).toMatch(/^eval\.run\.finished {2}attempt 1 {2}Delivered {2}HTTP 204 /m);
    expect(out).toMatch(/^refused \(401\): No matching signature found\n401$/m);
    expect(out).toContain(`webhookId=${webhookId!}`);

    // A request signed with the secret is accepted as sent and refused once its body is altered.
    const body = JSON.stringify({ type: 'eval.run.finished', timestamp: new Date().toISOString(), data: { jobId: 'J1', status: 'Succeeded', verdict: 'Fail', url: '/api/evals/runs/J1' } });
    const signedAt = new Date();
    const signature = new Webhook(secret!).sign('msg_signed', signedAt, body);
    const send = (sent: string): Promise<Response> =>
      fetch(`http://127.0.0.1:${walkthrough!.port(9000)}/hooks`, {
        method: 'POST',
        body: sent,
        headers: { 'content-type': 'application/json', 'webhook-id': 'msg_signed', 'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)), 'webhook-signature': signature },
      });
    expect((await send(body.replace('"Fail"', '"Pass"'))).status).toBe(401);
    expect((await send(body)).status).toBe(204);
    await expect.poll(() => walkthrough!.output('2')).toMatch(/^verified eval\.run\.finished msg_signed jobId=J1 status=Succeeded verdict=Fail$/m);
    expect(walkthrough!.output('2').match(/^refused \(401\)/gm)).toHaveLength(2);
    expect(walkthrough!.output('2')).not.toMatch(/msg_signed .*verdict=Pass/);

    await walkthrough!.run(cleanUp);
    expect(walkthrough!.output('2')).toContain(`deleted webhook ${webhookId!}\n`);
  }, 120_000);
});
