// `portcullis schedule …` without a service: the request a command line asks for, the printed lines,
// paging through nextCursor, and the command lines refused before anything is sent (exit 2).
import { describe, expect, it } from 'vitest';
import { refusedUsage, twoPageClient } from '../../../test/helpers/remote-io.js';
import type { Schema } from '../../client/index.js';
import { createdLines, createRequest, fireLines, inZone, runScheduleCommand, scheduleLines, schedulesOf } from './run-schedules.js';

const schedule = (overrides: Partial<Schema<'Schedule'>>): Schema<'Schedule'> => ({
  id: 'Sch123def456ghi789jkl012',
  name: 'nightly review',
  cron: '30 2 * * *',
  timeZone: 'Europe/Paris',
  target: { workflow: { workflowId: 'wf-1', input: { amount: 250 } } },
  enabled: true,
  nextRunAt: '2026-11-22T01:30:00.000Z',
  createdAt: '2026-11-21T12:00:00.000Z',
  ...overrides,
});

describe('schedule create request', () => {
  it('builds a workflow target with its input, the zone, and enabled false for --disabled', () => {
    expect(createRequest({ cron: '30 2 * * *', 'time-zone': 'Europe/Paris', workflow: 'wf-1', input: '{"amount":250}', disabled: true }, ['nightly review'])).toEqual({
      name: 'nightly review',
      cron: '30 2 * * *',
      timeZone: 'Europe/Paris',
      target: { workflow: { workflowId: 'wf-1', input: { amount: 250 } } },
      enabled: false,
    });
  });

  it('builds an eval target with the options given, and sends none of the service’s defaults', () => {
    expect(createRequest({ cron: '@daily', eval: ['greet', 'capitals'], repeats: '2', 'tag-filter': ['smoke'], 'fail-rate-threshold': '0.2', disabled: false }, ['evals'])).toEqual({
      name: 'evals',
      cron: '@daily',
      target: { eval: { datasets: ['greet', 'capitals'], repeats: 2, tagFilter: ['smoke'], failRateThreshold: 0.2 } },
    });
  });
});

describe('schedule lines', () => {
  it('create prints the id, the next fire in UTC and in the schedule’s zone, and the target', () => {
    expect(createdLines(schedule({}))).toEqual([
      'created schedule Sch123def456ghi789jkl012 (nightly review): 30 2 * * * in Europe/Paris',
      'next fire: 2026-11-22T01:30:00.000Z (2026-11-22 02:30:00 Europe/Paris)',
      'target: workflow wf-1 input {"amount":250}',
    ]);
    expect(createdLines(schedule({ timeZone: 'UTC', enabled: false, nextRunAt: null })).slice(0, 2)).toEqual([
      'created schedule Sch123def456ghi789jkl012 (nightly review): 30 2 * * *',
      'next fire: none while disabled',
    ]);
  });

  it('list prints id, name, cron, zone, enabled, next fire and target in aligned columns', () => {
    const lines = scheduleLines([
      schedule({}),
      schedule({ id: 'Ev1', name: 'evals', cron: '@hourly', timeZone: 'UTC', enabled: false, nextRunAt: null, target: { eval: { datasets: ['greet'], repeats: 2, tagFilter: ['a', 'b'] } } }),
    ]);
    expect(lines).toEqual([
      'Sch123def456ghi789jkl012  nightly review  30 2 * * *  Europe/Paris  enabled   next 2026-11-22T01:30:00.000Z  workflow wf-1 input {"amount":250}',
      'Ev1                       evals           @hourly     UTC           disabled  next -                         eval greet (repeats 2, tags a,b)',
    ]);
  });

  it('fires prints the time fired for, when, the outcome, and the run started or the reason', () => {
    expect(
      fireLines([
        { scheduledFor: '2026-11-22T01:30:00.000Z', firedAt: '2026-11-22T01:30:00.412Z', outcome: 'Started', jobId: 'Job1' },
        { scheduledFor: '2026-11-21T01:30:00.000Z', firedAt: '2026-11-21T01:30:01.002Z', outcome: 'Skipped', reason: 'A run of this workflow is still live.' },
      ]),
    ).toEqual([
      '2026-11-22T01:30:00.000Z  fired 2026-11-22T01:30:00.412Z  Started  job Job1',
      '2026-11-21T01:30:00.000Z  fired 2026-11-21T01:30:01.002Z  Skipped  A run of this workflow is still live.',
    ]);
  });

  it('shows an instant on a zone’s wall clock, DST included', () => {
    expect(inZone('2026-07-01T00:30:00.000Z', 'Europe/Paris')).toBe('2026-07-01 02:30:00');
    expect(inZone('2026-01-01T00:00:00.000Z', 'America/New_York')).toBe('2025-12-31 19:00:00');
  });
});

describe('schedulesOf', () => {
  it('follows nextCursor until it is null, asking for the largest page', async () => {
    const { client, queries } = twoPageClient('schedules', schedule({ id: 'first' }), schedule({ id: 'second' }));
    const ids: string[] = [];
    for await (const s of schedulesOf(client)) ids.push(s.id);
    expect(ids).toEqual(['first', 'second']);
    expect(queries).toEqual([{ limit: '200' }, { limit: '200', cursor: 'c2' }]);
  });
});

describe('schedule command lines refused before anything is sent', () => {
  it.each([
    [[], 'a subcommand is needed'],
    [['add'], "unknown subcommand 'add'"],
    [['create', '--cron', '@daily', '--workflow', 'wf'], 'a schedule name is needed'],
    [['create', 'a', 'b', '--cron', '@daily', '--workflow', 'wf'], "one name only (quote a name with spaces); unexpected 'b'"],
    [['create', 'n', '--workflow', 'wf'], '--cron is needed'],
    [['create', 'n', '--cron', '@daily'], 'exactly one of --workflow and --eval is needed'],
    [['create', 'n', '--cron', '@daily', '--workflow', 'wf', '--eval', 'greet'], 'exactly one of --workflow and --eval is needed'],
    [['create', 'n', '--cron', '@daily', '--workflow', 'wf', '--input', '{amount:1}'], '--input must be a JSON object'],
    [['create', 'n', '--cron', '@daily', '--workflow', 'wf', '--input', '[1]'], '--input must be a JSON object'],
    [['create', 'n', '--cron', '@daily', '--workflow', 'wf', '--repeats', '2'], '--repeats goes with --eval'],
    [['create', 'n', '--cron', '@daily', '--eval', 'greet', '--input', '{}'], '--input goes with --workflow'],
    [['create', 'n', '--cron', '@daily', '--eval', 'greet', '--fail-rate-threshold', '2'], '--fail-rate-threshold must be a number from 0 to 1'],
    [['create', 'n', '--cron', '@daily', '--eval', 'greet', '--parallelism', '0'], '--parallelism must be a positive integer'],
    [['list', 'extra'], "unexpected argument 'extra'"],
    [['delete'], 'exactly one schedule id is needed'],
    [['fires', 'a', 'b'], 'exactly one schedule id is needed'],
    [['fires', 'a', '--limit', 'all'], '--limit must be a positive integer'],
  ])('portcullis schedule %j exits 2 and says why', async (args, why) => {
    expect(await refusedUsage(runScheduleCommand, args)).toContain(why);
  });
});
