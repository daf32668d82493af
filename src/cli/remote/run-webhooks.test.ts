// `portcullis webhook …`: the printed lines, paging through nextCursor and the command lines refused
// before anything is sent (exit 2), then every subcommand against a real service on loopback delivering
// to a loopback receiver: the secret printed once, a test event verified with it and listed as delivered,
// and the service's refusals (an unknown event, a host not allowed, an unknown id) printed with exit 3.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../../../test/helpers/eventually.js';
import { startLiveService, type LiveService } from '../../../test/helpers/live-service.js';
import { recordingIo, refusedUsage, twoPageClient } from '../../../test/helpers/remote-io.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import type { Schema } from '../../client/index.js';
import { createdLines, createRequest, deliveryLines, runWebhookCommand, webhookLines, webhooksOf } from './run-webhooks.js';

const webhook = (overrides: Partial<Schema<'Webhook'>>): Schema<'Webhook'> => ({
  id: 'Wh123def456ghi789jkl0123',
  url: 'http://127.0.0.1:9000/hooks',
  events: ['eval.run.finished', 'schedule.failed'],
  description: null,
  createdAt: '2026-11-21T12:00:00.000Z',
  ...overrides,
});

describe('webhook create request', () => {
  it('sends the URL, every --event and the description', () => {
    expect(createRequest({ event: ['eval.run.finished', 'schedule.fired'], description: 'nightly evals' }, ['http://127.0.0.1:9000/hooks'])).toEqual({
      url: 'http://127.0.0.1:9000/hooks',
      events: ['eval.run.finished', 'schedule.fired'],
      description: 'nightly evals',
    });
  });
});

describe('webhook lines', () => {
  it('create prints the id and URL, the events, the secret on a line of its own and that it is not shown again', () => {
    expect(createdLines({ ...webhook({ description: 'nightly evals' }), secret: 'whsec_c2VjcmV0' })).toEqual([
      'created webhook Wh123def456ghi789jkl0123: http://127.0.0.1:9000/hooks',
      'events: eval.run.finished schedule.failed',
      'description: nightly evals',
      'secret: whsec_c2VjcmV0',
      'the secret is not shown again: give it to the receiver now, to verify each delivery’s webhook-signature',
    ]);
  });

  it('create says a replayed answer has no secret, and how to get one, instead of printing “undefined”', () => {
    const lines = createdLines(webhook({ description: null }));
    expect(lines.slice(0, 2)).toEqual(['created webhook Wh123def456ghi789jkl0123: http://127.0.0.1:9000/hooks', 'events: eval.run.finished schedule.failed']);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^no secret: this answer replays an earlier create, .* webhook delete Wh123def456ghi789jkl0123 and create another$/);
  });

  it('list prints id, URL, events, created and description in aligned columns, without trailing blanks', () => {
    expect(webhookLines([webhook({ description: 'nightly' }), webhook({ id: 'W2', url: 'https://hooks.example.com/p', events: ['webhook.test'] })])).toEqual([
      'Wh123def456ghi789jkl0123  http://127.0.0.1:9000/hooks  eval.run.finished,schedule.failed  created 2026-11-21T12:00:00.000Z  nightly',
      'W2                        https://hooks.example.com/p  webhook.test                       created 2026-11-21T12:00:00.000Z',
    ]);
  });

  it('deliveries prints type, attempts, status, the last answer, its duration, the next attempt and when created', () => {
    const delivery = { deliveryId: 'D1', eventId: 'msg_1', createdAt: '2026-11-21T12:00:00.000Z' };
    expect(
      deliveryLines([
        { ...delivery, type: 'eval.run.finished', attempt: 2, status: 'Pending', responseStatus: 503, durationMs: 12, nextAttemptAt: '2026-11-21T12:05:05.000Z' },
        { ...delivery, type: 'webhook.test', attempt: 1, status: 'Delivered', responseStatus: 204, durationMs: 4, nextAttemptAt: null },
        { ...delivery, type: 'schedule.failed', attempt: 7, status: 'Failed', responseStatus: null, durationMs: null, nextAttemptAt: null },
      ]),
    ).toEqual([
      'eval.run.finished  attempt 2  Pending    HTTP 503   12 ms  next 2026-11-21T12:05:05.000Z  created 2026-11-21T12:00:00.000Z',
      'webhook.test       attempt 1  Delivered  HTTP 204   4 ms   next -                         created 2026-11-21T12:00:00.000Z',
      'schedule.failed    attempt 7  Failed     no answer  -      next -                         created 2026-11-21T12:00:00.000Z',
    ]);
  });
});

describe('webhooksOf', () => {
  it('follows nextCursor until it is null, asking for the largest page', async () => {
    const { client, queries } = twoPageClient('webhooks', webhook({ id: 'first' }), webhook({ id: 'second' }));
    const ids: string[] = [];
    for await (const w of webhooksOf(client)) ids.push(w.id);
    expect(ids).toEqual(['first', 'second']);
    expect(queries).toEqual([{ limit: '200' }, { limit: '200', cursor: 'c2' }]);
  });
});

describe('webhook command lines refused before anything is sent', () => {
  it.each([
    [[], 'a subcommand is needed'],
    [['add'], "unknown subcommand 'add'"],
    [['create', '--event', 'eval.run.finished'], "the webhook's URL is needed (npx portcullis webhook create URL --event NAME; --url is the service's origin)"],
    [['create', 'http://a/1', 'http://a/2', '--event', 'eval.run.finished'], "one URL only; unexpected 'http://a/2'"],
    [['create', 'http://127.0.0.1:9000/hooks'], 'at least one --event is needed'],
    [['create', 'http://127.0.0.1:9000/hooks', '--events', 'eval.run.finished'], "Unknown option '--events'"],
    [['list', 'extra'], "unexpected argument 'extra'"],
    [['deliveries'], 'exactly one webhook id is needed'],
    [['deliveries', 'a', '--limit', 'all'], '--limit must be a positive integer'],
    [['test', 'a', 'b'], 'exactly one webhook id is needed'],
    [['delete'], 'exactly one webhook id is needed'],
  ])('portcullis webhook %j exits 2 and says why', async (args, why) => {
    expect(await refusedUsage(runWebhookCommand, args)).toContain(why);
  });

  it('--help lists every option of create with the event names, and the group lists its subcommands', async () => {
    const help = recordingIo();
    expect(await runWebhookCommand(['create', '--help'], help)).toBe(0);
    expect(help.out.join('\n')).toMatch(/^usage: portcullis webhook create URL \[options\]\n/);
    expect(help.out.join('\n')).toMatch(/--event NAME\.\.\.\s+An event to deliver \(repeatable, at least one\): bundle\.run\.finished, .*eval\.run\.finished, .*schedule\.failed/);
    expect(help.out.join('\n')).toContain('exit codes: 0 done');
    const group = recordingIo();
    expect(await runWebhookCommand(['--help'], group)).toBe(0);
    for (const sub of ['create URL --event NAME...', 'list', 'deliveries WEBHOOK_ID', 'test WEBHOOK_ID', 'delete WEBHOOK_ID']) expect(group.out.join('\n')).toContain(`  ${sub}`);
  });
});

describe('portcullis webhook against a service on loopback', () => {
  let live: LiveService;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    live = await startLiveService({}, { settings: { AppConfig: { Webhooks: { AllowedHosts: ['127.0.0.1'], PollInterval: '00:00:00.02' } } } });
    env = { PORTCULLIS_URL: live.url, PORTCULLIS_TOKEN: await live.token('hook-owner') };
  }, 30_000);
  afterAll(async () => {
    await live.close();
    await receiver.close();
  });

  /** Runs `portcullis webhook ARGS…` in this process against the live service; its exit code and printed lines. */
  async function webhookCli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const io = recordingIo(env);
    const code = await runWebhookCommand(args, io);
    return { code, out: io.out.join('\n'), err: io.err.join('\n') };
  }

  it('create prints the secret once; list shows the webhook and never its secret; --json prints the 201 body', async () => {
    const created = await webhookCli('create', receiver.url, '--event', 'eval.run.finished', '--event', 'schedule.fired', '--description', 'nightly evals');
    expect(created.code).toBe(0);
    const [, id] = /^created webhook (\S+): /.exec(created.out)!;
    const [, secret] = /^secret: (whsec_\S+)$/m.exec(created.out)!;
    expect(created.out.split(secret!)).toHaveLength(2);
    expect(created.out).toContain(`created webhook ${id!}: ${receiver.url}\nevents: eval.run.finished schedule.fired\ndescription: nightly evals\nsecret: ${secret!}\nthe secret is not shown again`);

    const listed = await webhookCli('list');
    expect(listed.code).toBe(0);
    const line = listed.out.split('\n').find((l) => l.startsWith(`${id!} `))!;
    expect(line.split(/ {2,}/)).toEqual([id, receiver.url, 'eval.run.finished,schedule.fired', expect.stringMatching(/^created \S+Z$/), 'nightly evals']);
    const listedJson = await webhookCli('list', '--json');
    expect((JSON.parse(listedJson.out) as Schema<'WebhookList'>).webhooks).toContainEqual(expect.objectContaining({ id, events: ['eval.run.finished', 'schedule.fired'] }));
    expect(listed.out + listedJson.out).not.toContain('whsec_');

    const json = await webhookCli('create', receiver.url, '--event', 'approval.requested', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({ id: expect.any(String), url: receiver.url, events: ['approval.requested'], description: null, secret: expect.stringMatching(/^whsec_/), createdAt: expect.any(String) });
  });

  it('test sends a webhook.test that verifies with the printed secret, and deliveries lists it Delivered', async () => {
    const created = await webhookCli('create', receiver.url, '--event', 'eval.run.finished');
    const [, id] = /^created webhook (\S+): /.exec(created.out)!;
    const [, secret] = /^secret: (whsec_\S+)$/m.exec(created.out)!;
    expect((await webhookCli('deliveries', '--', id!)).out).toBe(`no deliveries to webhook ${id!} yet`);

    // An id may begin with '-': it goes after '--', as the printed hint writes it.
    const tested = await webhookCli('test', '--', id!);
    expect(tested.code).toBe(0);
    expect(tested.out).toBe(`queued a webhook.test event for webhook ${id!}; see npx portcullis webhook deliveries ${id!.startsWith('-') ? '-- ' : ''}${id!}`);
    const event = await eventually(async () => {
      for (const request of receiver.received) {
        try {
          return new Webhook(secret!).verify(request.body, request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
        } catch {
          // another test's webhook, signed with its own secret
        }
      }
      return undefined;
    });
    expect(event).toMatchObject({ type: 'webhook.test', data: { webhookId: id } });

    const line = await eventually(async () => {
      const listed = await webhookCli('deliveries', '--', id!);
      return listed.code === 0 && listed.out.includes('Delivered') ? listed.out : undefined;
    });
    expect(line).toMatch(/^webhook\.test {2}attempt 1 {2}Delivered {2}HTTP 200 {2}\d+ ms +next - {2}created \S+Z$/);
    const json = JSON.parse((await webhookCli('deliveries', '--json', '--limit', '1', '--', id!)).out) as Schema<'WebhookDeliveryList'>;
    expect(json.deliveries).toEqual([expect.objectContaining({ type: 'webhook.test', status: 'Delivered', attempt: 1, responseStatus: 200 })]);
  });

  it('an unknown event name prints the service’s 400 detail and exits 3; so does a host not allowed', async () => {
    const before = (await webhookCli('list')).out;
    const unknown = await webhookCli('create', receiver.url, '--event', 'eval.run.done');
    expect(unknown.code).toBe(3);
    expect(unknown.out).toBe('');
    expect(unknown.err).toContain('portcullis webhook create: the service refused: 400 Validation failed: body/events/0 must be one of: bundle.run.finished,');
    const json = await webhookCli('create', receiver.url, '--event', 'eval.run.done', '--json');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.out)).toMatchObject({ status: 400, title: 'Validation failed' });
    const host = await webhookCli('create', 'https://hooks.example.com/p', '--event', 'eval.run.finished');
    expect(host.code).toBe(3);
    expect(host.err).toContain('the service refused: 400 Validation failed: The host "hooks.example.com" is not in AppConfig:Webhooks:AllowedHosts.');
    expect((await webhookCli('list')).out).toBe(before);
  });

  it('delete exits 0 and list no longer shows it; its deliveries, a test or a second delete are the service’s 404, exit 3', async () => {
    const [, id] = /^created webhook (\S+): /.exec((await webhookCli('create', receiver.url, '--event', 'eval.run.finished')).out)!;
    const deleted = await webhookCli('delete', '--', id!);
    expect(deleted.code).toBe(0);
    expect(deleted.out).toBe(`deleted webhook ${id!}`);
    expect((await webhookCli('list')).out).not.toContain(id!);
    for (const args of [['deliveries', '--', id!], ['test', '--', id!], ['delete', '--', id!]]) {
      const refused = await webhookCli(...args);
      expect(refused.code).toBe(3);
      expect(refused.err).toContain('the service refused: 404 Not found: Webhook not found.');
    }
  });
});
