// `portcullis webhook create URL --event NAME... | list | deliveries ID | test ID | delete ID`: webhooks
// (DESIGN §14) from the command line. `create` prints the new webhook's id, URL and events and its signing
// secret, which the service answers only then; `list` pages through GET /api/webhooks (never a secret);
// `deliveries` prints a webhook's recent deliveries, newest first; `test` queues a webhook.test event.
// The destination is a positional URL because --url is every remote command's service origin. A refusal
// (an unknown event or a host not allowed: 400; an unknown id: 404; the cap: 409) is printed by runRemote
// and exits 3 like every remote command.
import { unwrap, type PortcullisClient, type Schema } from '../../client/index.js';
import { RESOURCE_EVENT_TYPES } from '../../platform/outbox/index.js';
import type { CommandSpec } from './command-spec.js';
import { CONNECTION_OPTIONS } from './connection.js';
import { EXIT, REMOTE_NOTES } from './exit-codes.js';
import { alignedLines, allOf, PAGE_LIMIT, pagesOf, printList } from './listing.js';
import { integerOption } from './option-values.js';
import { groupUsage, noArguments, oneId, runRemote, UsageError, type RemoteIo } from './remote-command.js';
import { runnable } from '../runnable.js';

type Webhook = Schema<'Webhook'>;
type Delivery = Schema<'WebhookDelivery'>;

export const WEBHOOK_CREATE_SPEC: CommandSpec = {
  name: 'webhook create',
  positionals: 'URL',
  summary:
    'Subscribe URL to events of my resources: each is POSTed there signed per Standard Webhooks. Prints its id, URL and events, and its signing secret, which is never shown again.',
  options: {
    event: { type: 'string', value: 'NAME', multiple: true, description: `An event to deliver (repeatable, at least one): ${RESOURCE_EVENT_TYPES.join(', ')}.` },
    description: { type: 'string', value: 'TEXT', description: 'A note kept with the webhook (up to 500 characters).' },
    ...CONNECTION_OPTIONS,
  },
  notes: [
    "URL's host must be in the service's AppConfig:Webhooks:AllowedHosts (a loopback or private address listed by IP); --url is the service's origin, not the destination.",
    ...REMOTE_NOTES,
  ],
};

export const WEBHOOK_LIST_SPEC: CommandSpec = {
  name: 'webhook list',
  positionals: '',
  summary: 'List my webhooks, newest first. One line each: id, URL, events, when it was created, its description.',
  options: { ...CONNECTION_OPTIONS },
  notes: REMOTE_NOTES,
};

export const WEBHOOK_DELIVERIES_SPEC: CommandSpec = {
  name: 'webhook deliveries',
  positionals: 'WEBHOOK_ID',
  summary:
    'A webhook’s recent deliveries, newest first. One line each: event type, attempts made, status (Pending, Delivered, Failed), the last answer, its duration, the next attempt, when the event was created.',
  options: {
    limit: { type: 'string', value: 'N', default: '50', applyDefault: false, description: 'How many deliveries at the most (1..200).' },
    ...CONNECTION_OPTIONS,
  },
  notes: REMOTE_NOTES,
};

export const WEBHOOK_TEST_SPEC: CommandSpec = {
  name: 'webhook test',
  positionals: 'WEBHOOK_ID',
  summary: 'Send a webhook.test event to one of my webhooks, whatever its events; it is delivered like any other (see webhook deliveries).',
  options: { ...CONNECTION_OPTIONS },
  notes: REMOTE_NOTES,
};

export const WEBHOOK_DELETE_SPEC: CommandSpec = {
  name: 'webhook delete',
  positionals: 'WEBHOOK_ID',
  summary: 'Delete one of my webhooks: deliveries not yet made are dropped. An unknown id is refused (404, exit 3).',
  options: { ...CONNECTION_OPTIONS },
  notes: REMOTE_NOTES,
};

export const WEBHOOK_USAGE = [
  'usage: portcullis webhook <subcommand> [options]',
  '',
  'subcommands:',
  '  create URL --event NAME... [--description TEXT]   subscribe URL to events of my resources; prints the secret once',
  '  list                                              my webhooks',
  '  deliveries WEBHOOK_ID                             its recent deliveries, newest first',
  '  test WEBHOOK_ID                                   send it a webhook.test event',
  '  delete WEBHOOK_ID                                 stop delivering to it',
  '',
  `ids may begin with '-': put them after -- (${runnable('webhook deliveries -- WEBHOOK_ID')})`,
  'each subcommand has --help',
].join('\n');

export async function runWebhookCommand(args: string[], io: RemoteIo): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'create':
      return runRemote(WEBHOOK_CREATE_SPEC, rest, io, async ({ values, positionals, client, json }) => {
        const created = await unwrap(client.api.POST('/api/webhooks', { body: createRequest(values, positionals) }));
        if (json) io.stdout(JSON.stringify(created));
        else for (const line of createdLines(created)) io.stdout(line);
        return EXIT.ok;
      });
    case 'list':
      return runRemote(WEBHOOK_LIST_SPEC, rest, io, async ({ positionals, client, json }) => {
        noArguments(positionals);
        const webhooks = await allOf(webhooksOf(client));
        printList(io, json, { webhooks }, webhookLines(webhooks), 'no webhooks');
        return EXIT.ok;
      });
    case 'deliveries':
      return runRemote(WEBHOOK_DELIVERIES_SPEC, rest, io, async ({ values, positionals, client, json }) => {
        const id = oneId(positionals, 'webhook');
        const limit = values.limit === undefined ? undefined : integerOption(values.limit, '--limit');
        const page = await unwrap(client.api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id }, query: limit === undefined ? {} : { limit } } }));
        printList(io, json, page, deliveryLines(page.deliveries), `no deliveries to webhook ${id} yet`);
        return EXIT.ok;
      });
    case 'test':
      return runRemote(WEBHOOK_TEST_SPEC, rest, io, async ({ positionals, client, json }) => {
        const id = oneId(positionals, 'webhook');
        await unwrap(client.api.POST('/api/webhooks/{id}/test', { params: { path: { id } } }));
        io.stdout(json ? JSON.stringify({ id, queued: 'webhook.test' }) : `queued a webhook.test event for webhook ${id}; see ${deliveriesHint(id)}`);
        return EXIT.ok;
      });
    case 'delete':
      return runRemote(WEBHOOK_DELETE_SPEC, rest, io, async ({ positionals, client, json }) => {
        const id = oneId(positionals, 'webhook');
        await unwrap(client.api.DELETE('/api/webhooks/{id}', { params: { path: { id } } }));
        io.stdout(json ? JSON.stringify({ id, deleted: true }) : `deleted webhook ${id}`);
        return EXIT.ok;
      });
    default:
      return groupUsage('webhook', WEBHOOK_USAGE, subcommand, io);
  }
}

/** The create request the command line asks for; event names are the service's to judge (an unknown one is its 400). */
export function createRequest(values: Readonly<Record<string, string | boolean | string[] | undefined>>, positionals: readonly string[]): Schema<'CreateWebhook'> {
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? `the webhook's URL is needed (${runnable('webhook create URL --event NAME')}; --url is the service's origin)` : `one URL only; unexpected '${positionals[1]}'`);
  }
  const events = Array.isArray(values.event) ? values.event : [];
  if (events.length === 0) throw new UsageError('at least one --event is needed');
  return {
    url: positionals[0]!,
    events: events as Schema<'CreateWebhook'>['events'],
    ...(typeof values.description === 'string' ? { description: values.description } : {}),
  };
}

/** Every webhook of the caller, page after page (newest first). */
export async function* webhooksOf(client: PortcullisClient): AsyncGenerator<Webhook> {
  for await (const page of pagesOf((cursor) => unwrap(client.api.GET('/api/webhooks', { params: { query: { limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) } } })))) {
    yield* page.webhooks;
  }
}

/**
 * What `create` prints: the id and URL, the events, the secret on a line of its own, and that it is not
 * shown again. A replayed answer (a retry of a create whose first answer was lost) has no secret: it
 * says so and how to get one.
 */
export function createdLines(w: Schema<'CreatedWebhook'>): string[] {
  return [
    `created webhook ${w.id}: ${w.url}`,
    `events: ${w.events.join(' ')}`,
    ...(w.description === null ? [] : [`description: ${w.description}`]),
    ...(w.secret === undefined
      ? [`no secret: this answer replays an earlier create, and the secret is only in the first answer; if it was lost, run ${runnable('webhook delete', w.id)} and create another`]
      : [`secret: ${w.secret}`, 'the secret is not shown again: give it to the receiver now, to verify each delivery’s webhook-signature']),
  ];
}

/** One line per webhook, its columns aligned: id, URL, events, created, description. */
export function webhookLines(webhooks: readonly Webhook[]): string[] {
  return alignedLines(webhooks.map((w) => [w.id, w.url, w.events.join(','), `created ${w.createdAt}`, w.description ?? '']));
}

/** One line per delivery, its columns aligned: type, attempts, status, the last answer, its duration, the next attempt, created. */
export function deliveryLines(deliveries: readonly Delivery[]): string[] {
  return alignedLines(
    deliveries.map((d) => [
      d.type,
      `attempt ${d.attempt}`,
      d.status,
      d.responseStatus === null ? 'no answer' : `HTTP ${d.responseStatus}`,
      d.durationMs === null ? '-' : `${d.durationMs} ms`,
      d.nextAttemptAt === null ? 'next -' : `next ${d.nextAttemptAt}`,
      `created ${d.createdAt}`,
    ]),
  );
}

/** The command line that lists a webhook's deliveries, as hints print it (decision 1001: runnable as shown). */
export function deliveriesHint(id: string): string {
  return runnable('webhook deliveries', id);
}
