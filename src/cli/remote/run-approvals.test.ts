// `portcullis approvals …` without a service: the printed lines, the time left, paging through
// nextCursor, and the command lines refused before anything is sent (exit 2).
import { describe, expect, it } from 'vitest';
import { refusedUsage, twoPageClient } from '../../../test/helpers/remote-io.js';
import { createClient, type Schema } from '../../client/index.js';
import { approvalLines, approvalsOf, runApprovalsCommand, timeLeft } from './run-approvals.js';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');

const approval = (overrides: Partial<Schema<'Approval'>>): Schema<'Approval'> => ({
  approvalId: 'Abc123def456ghi789jkl012',
  kind: 'HumanGate',
  status: 'Pending',
  runKind: 'workflow',
  jobId: 'Job123def456ghi789jkl012',
  workflowId: 'wf',
  stepName: 'sign-off',
  reason: 'HumanGate',
  requestedBy: 'Rita',
  createdAt: '2026-11-21T11:00:00.000Z',
  expiresAt: '2026-11-22T11:59:00.000Z',
  escalated: false,
  ...overrides,
});

describe('approvals list lines', () => {
  it('prints id, kind, status, what it approves, who asked and the time left, in aligned columns', () => {
    const lines = approvalLines(
      [
        approval({}),
        approval({ approvalId: 'Tool23def456ghi789jkl012', kind: 'ToolCall', stepName: 'add', tool: 'calculator', operation: 'evaluate', requestedBy: null, expiresAt: null }),
        approval({ approvalId: 'Bnd123def456ghi789jkl012', kind: 'ToolCall', runKind: 'bundle', stepName: undefined, tool: 'clock', operation: 'now', expiresAt: '2026-11-21T11:00:00.000Z' }),
      ],
      NOW,
    );
    expect(lines).toEqual([
      'Abc123def456ghi789jkl012  HumanGate  Pending  step sign-off                         requested by Rita       expires in 23h 59m',
      'Tool23def456ghi789jkl012  ToolCall   Pending  tool calculator evaluate at step add  requested by (no name)  never expires',
      'Bnd123def456ghi789jkl012  ToolCall   Pending  tool clock now                        requested by Rita       expired',
    ]);
  });

  it('names the decider of a decided approval instead of a time left', () => {
    const [line] = approvalLines([approval({ status: 'Approved', decision: { decision: 'Approve', decidedBy: 'Bob', decidedAt: '2026-11-21T11:30:00.000Z' } })], NOW);
    expect(line).toMatch(/Approved {2}step sign-off {2}requested by Rita {2}decided by Bob$/);
  });

  it('gives the time left in its two largest units', () => {
    expect(timeLeft(12_400)).toBe('12s');
    expect(timeLeft(5 * 60_000)).toBe('5m 0s');
    expect(timeLeft(86_399_000)).toBe('23h 59m');
    expect(timeLeft(86_400_000 + 4 * 3_600_000 + 59_000)).toBe('1d 4h');
    expect(timeLeft(400)).toBe('0s');
  });
});

describe('approvalsOf', () => {
  it('follows nextCursor until it is null, asking for the largest page with the scope and status given', async () => {
    const { client, queries } = twoPageClient('approvals', approval({ approvalId: 'first' }), approval({ approvalId: 'second' }));
    const ids: string[] = [];
    for await (const a of approvalsOf(client, { scope: 'approver', status: 'Expired' })) ids.push(a.approvalId);
    expect(ids).toEqual(['first', 'second']);
    expect(queries).toEqual([
      { scope: 'approver', status: 'Expired', limit: '200' },
      { scope: 'approver', status: 'Expired', limit: '200', cursor: 'c2' },
    ]);
  });
});

describe('approvals list while the host has approvals off', () => {
  it('passes on the host’s notice (the portcullis-notice header) so the command can print why the list is empty', async () => {
    const notice = 'Approvals are off on this host (AppConfig:AI:Approvals:Enabled is false): tool calls never wait for a person, so only workflow HumanGate approvals are listed.';
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9',
      fetch: () => Promise.resolve(new Response(JSON.stringify({ approvals: [], nextCursor: null }), { headers: { 'content-type': 'application/json', 'portcullis-notice': notice } })),
    });
    const heard: string[] = [];
    for await (const a of approvalsOf(client, { scope: 'approver' }, (said) => heard.push(said))) expect(a).toBeUndefined();
    expect(heard).toEqual([notice]);
  });
});

describe('approvals command lines refused before anything is sent', () => {
  it.each([
    [[], 'a subcommand is needed'],
    [['approve'], "unknown subcommand 'approve'"],
    [['list', '--status', 'Done'], '--status must be one of Pending, Approved, Rejected, Expired, Withdrawn'],
    [['list', 'extra'], "unexpected argument 'extra'"],
    [['decide', 'Abc123def456ghi789jkl012'], 'an approval id and approve or reject are needed'],
    [['decide', 'Abc123def456ghi789jkl012', 'maybe'], "the decision must be approve or reject, not 'maybe'"],
    [['decide', 'Abc123def456ghi789jkl012', 'approve', '--payload', '{version:1}'], '--payload must be JSON'],
  ])('portcullis approvals %j exits 2 and says why', async (args, why) => {
    expect(await refusedUsage(runApprovalsCommand, args)).toContain(why);
  });
});
