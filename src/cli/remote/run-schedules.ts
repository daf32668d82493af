// `portcullis schedule create NAME --cron EXPR (--workflow ID | --eval DATASET...) | list | delete ID |
// fires ID`: schedules (DESIGN §14) from the command line. `create` prints the new schedule's id, its
// next fire (in UTC and, when --time-zone is given, in that zone) and its target; `list` pages through
// GET /api/schedules and prints one aligned line per schedule; `fires` prints a schedule's recent fires,
// newest first. A refusal (a bad cron or zone: 400; an unknown id: 404; the cap: 409) is printed by
// runRemote and exits 3 like every remote command.
import { unwrap, type PortcullisClient, type Schema } from '../../client/index.js';
import type { CommandSpec } from './command-spec.js';
import { CONNECTION_OPTIONS } from './connection.js';
import { EXIT, REMOTE_NOTES } from './exit-codes.js';
import { alignedLines, allOf, PAGE_LIMIT, pagesOf, printList } from './listing.js';
import { evalRunOptions, integerOption, jsonObjectOption } from './option-values.js';
import { groupUsage, noArguments, oneId, runRemote, UsageError, type RemoteIo } from './remote-command.js';
import { runnable } from '../runnable.js';

type Schedule = Schema<'Schedule'>;
type ScheduleTarget = Schema<'ScheduleTarget'>;
type ScheduleFire = Schema<'ScheduleFire'>;

const WORKFLOW_ONLY = ['input'] as const;
const EVAL_ONLY = ['repeats', 'parallelism', 'tag-filter', 'fail-rate-threshold'] as const;

export const SCHEDULE_CREATE_SPEC: CommandSpec = {
  name: 'schedule create',
  positionals: 'NAME',
  summary:
    'Create a schedule that starts a workflow run (--workflow) or an eval run (--eval) on a cron, as me, under my claims as they are now. Prints its id, its next fire and its target.',
  options: {
    cron: {
      type: 'string',
      value: 'EXPR',
      description: "Five fields (minute hour day-of-month month day-of-week; quote it: '30 2 * * *') or @hourly, @daily, @weekly, @monthly. Required.",
    },
    'time-zone': { type: 'string', value: 'ZONE', default: 'UTC', applyDefault: false, description: 'The IANA time zone the cron is read in (Europe/Paris).' },
    workflow: { type: 'string', value: 'WORKFLOW_ID', description: 'Start a run of this stored workflow at each fire.' },
    input: { type: 'string', value: 'JSON', description: 'With --workflow: the run’s input, a JSON object.' },
    eval: { type: 'string', value: 'DATASET', multiple: true, description: 'Start an eval run over this dataset at each fire (repeatable).' },
    repeats: { type: 'string', value: 'N', default: '1', applyDefault: false, description: 'With --eval: executions of every case.' },
    parallelism: { type: 'string', value: 'N', default: '4', applyDefault: false, description: 'With --eval: concurrent case executions, repeats included.' },
    'tag-filter': { type: 'string', value: 'T', multiple: true, description: 'With --eval: only cases with any of these tags (repeatable).' },
    'fail-rate-threshold': { type: 'string', value: 'X', default: '0', applyDefault: false, description: 'With --eval: the verdict is Fail when (failed + errored) / total exceeds X (0..1).' },
    disabled: { type: 'boolean', default: false, description: 'Create it disabled: it does not fire until PATCH /api/schedules/{id} enables it.' },
    ...CONNECTION_OPTIONS,
  },
  notes: ['Exactly one of --workflow and --eval.', ...REMOTE_NOTES],
};

export const SCHEDULE_LIST_SPEC: CommandSpec = {
  name: 'schedule list',
  positionals: '',
  summary: 'List my schedules, newest first. One line each: id, name, cron, time zone, enabled or disabled, next fire (UTC), target.',
  options: { ...CONNECTION_OPTIONS },
  notes: REMOTE_NOTES,
};

export const SCHEDULE_DELETE_SPEC: CommandSpec = {
  name: 'schedule delete',
  positionals: 'SCHEDULE_ID',
  summary: 'Delete one of my schedules: it never fires again (runs it started are not touched). An unknown id is refused (404, exit 3).',
  options: { ...CONNECTION_OPTIONS },
  notes: REMOTE_NOTES,
};

export const SCHEDULE_FIRES_SPEC: CommandSpec = {
  name: 'schedule fires',
  positionals: 'SCHEDULE_ID',
  summary: 'A schedule’s recent fires, newest first. One line each: the time it fired for, when it fired, the outcome, and the run it started or why it did not.',
  options: {
    limit: { type: 'string', value: 'N', default: '50', applyDefault: false, description: 'How many fires at the most (1..200).' },
    ...CONNECTION_OPTIONS,
  },
  notes: REMOTE_NOTES,
};

export const SCHEDULE_USAGE = [
  'usage: portcullis schedule <subcommand> [options]',
  '',
  'subcommands:',
  '  create NAME --cron EXPR (--workflow ID | --eval DATASET...)   start a run on a cron, as me',
  '  list                                                          my schedules, with their next fire',
  '  delete SCHEDULE_ID                                            it never fires again',
  '  fires SCHEDULE_ID                                             its recent fires, newest first',
  '',
  `ids may begin with '-': put them after -- (${runnable('schedule delete -- SCHEDULE_ID')})`,
  'each subcommand has --help',
].join('\n');

export async function runScheduleCommand(args: string[], io: RemoteIo): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'create':
      return runRemote(SCHEDULE_CREATE_SPEC, rest, io, async ({ values, positionals, client, json }) => {
        const body = createRequest(values, positionals);
        const created = await unwrap(client.api.POST('/api/schedules', { body }));
        if (json) io.stdout(JSON.stringify(created));
        else for (const line of createdLines(created)) io.stdout(line);
        return EXIT.ok;
      });
    case 'list':
      return runRemote(SCHEDULE_LIST_SPEC, rest, io, async ({ positionals, client, json }) => {
        noArguments(positionals);
        const schedules = await allOf(schedulesOf(client));
        printList(io, json, { schedules }, scheduleLines(schedules), 'no schedules');
        return EXIT.ok;
      });
    case 'delete':
      return runRemote(SCHEDULE_DELETE_SPEC, rest, io, async ({ positionals, client, json }) => {
        const id = oneId(positionals, 'schedule');
        await unwrap(client.api.DELETE('/api/schedules/{id}', { params: { path: { id } } }));
        io.stdout(json ? JSON.stringify({ id, deleted: true }) : `deleted schedule ${id}`);
        return EXIT.ok;
      });
    case 'fires':
      return runRemote(SCHEDULE_FIRES_SPEC, rest, io, async ({ values, positionals, client, json }) => {
        const id = oneId(positionals, 'schedule');
        const limit = values.limit === undefined ? undefined : integerOption(values.limit, '--limit');
        const page = await unwrap(client.api.GET('/api/schedules/{id}/fires', { params: { path: { id }, query: limit === undefined ? {} : { limit } } }));
        printList(io, json, page, fireLines(page.fires), `no fires of schedule ${id} yet`);
        return EXIT.ok;
      });
    default:
      return groupUsage('schedule', SCHEDULE_USAGE, subcommand, io);
  }
}

/** The create request the command line asks for; what it cannot be is bad usage, said before anything is sent. */
export function createRequest(values: Readonly<Record<string, string | boolean | string[] | undefined>>, positionals: readonly string[]): Schema<'CreateScheduleRequest'> {
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'a schedule name is needed' : `one name only (quote a name with spaces); unexpected '${positionals[1]}'`);
  if (typeof values.cron !== 'string') throw new UsageError('--cron is needed');
  const workflowId = typeof values.workflow === 'string' ? values.workflow : undefined;
  const datasets = Array.isArray(values.eval) ? values.eval : [];
  if ((workflowId === undefined) === (datasets.length === 0)) throw new UsageError('exactly one of --workflow and --eval is needed');
  const misplaced = (workflowId === undefined ? WORKFLOW_ONLY : EVAL_ONLY).find((name) => values[name] !== undefined);
  if (misplaced !== undefined) throw new UsageError(`--${misplaced} goes with ${workflowId === undefined ? '--workflow' : '--eval'}`);
  const target: ScheduleTarget =
    workflowId !== undefined
      ? { workflow: { workflowId, ...(typeof values.input === 'string' ? { input: jsonObjectOption(values.input, '--input') } : {}) } }
      : { eval: { datasets, ...evalRunOptions(values, { threshold: 'fail-rate-threshold', tag: 'tag-filter' }) } };
  return {
    name: positionals[0]!,
    cron: values.cron,
    ...(typeof values['time-zone'] === 'string' ? { timeZone: values['time-zone'] } : {}),
    target,
    ...(values.disabled === true ? { enabled: false } : {}),
  };
}

/** Every schedule of the caller, page after page (newest first). */
export async function* schedulesOf(client: PortcullisClient): AsyncGenerator<Schedule> {
  for await (const page of pagesOf((cursor) => unwrap(client.api.GET('/api/schedules', { params: { query: { limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) } } })))) {
    yield* page.schedules;
  }
}

/** What `create` prints: the id and name, the next fire in UTC (and in the schedule's zone when not UTC), the target. */
export function createdLines(s: Schedule): string[] {
  const zoned = s.nextRunAt !== null && s.timeZone !== 'UTC' ? ` (${inZone(s.nextRunAt, s.timeZone)} ${s.timeZone})` : '';
  return [
    `created schedule ${s.id} (${s.name}): ${s.cron}${s.timeZone === 'UTC' ? '' : ` in ${s.timeZone}`}`,
    `next fire: ${s.nextRunAt === null ? 'none while disabled' : `${s.nextRunAt}${zoned}`}`,
    `target: ${describeTarget(s.target)}`,
  ];
}

/** One line per schedule, its columns aligned: id, name, cron, zone, enabled, next fire, target. */
export function scheduleLines(schedules: readonly Schedule[]): string[] {
  return alignedLines(
    schedules.map((s) => [s.id, s.name, s.cron, s.timeZone, s.enabled ? 'enabled' : 'disabled', s.nextRunAt === null ? 'next -' : `next ${s.nextRunAt}`, describeTarget(s.target)]),
  );
}

/** One line per fire: the time fired for, when it fired, the outcome, and the run it started or why not. */
export function fireLines(fires: readonly ScheduleFire[]): string[] {
  return alignedLines(fires.map((f) => [f.scheduledFor, `fired ${f.firedAt}`, f.outcome, f.jobId !== undefined ? `job ${f.jobId}` : (f.reason ?? '')]));
}

export function describeTarget(target: ScheduleTarget): string {
  if ('workflow' in target) return `workflow ${target.workflow.workflowId}${target.workflow.input === undefined ? '' : ` input ${JSON.stringify(target.workflow.input)}`}`;
  const e = target.eval;
  const details = [
    e.repeats === undefined ? '' : `repeats ${e.repeats}`,
    e.parallelism === undefined ? '' : `parallelism ${e.parallelism}`,
    e.tagFilter === undefined ? '' : `tags ${e.tagFilter.join(',')}`,
    e.failRateThreshold === undefined ? '' : `fail-rate threshold ${e.failRateThreshold}`,
  ].filter((d) => d !== '');
  return `eval ${e.datasets.join(' ')}${details.length === 0 ? '' : ` (${details.join(', ')})`}`;
}

/** An instant as the wall clock of a zone shows it: `2026-11-22 02:30:00`. */
export function inZone(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    .formatToParts(new Date(iso))
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
