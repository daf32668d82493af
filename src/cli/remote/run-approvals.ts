// `portcullis approvals list [--to-decide] [--status STATUS] | decide ID approve|reject [--comment TEXT]
// [--payload JSON]`: the one approval contract (DESIGN §13) from the command line. `list` pages through
// GET /api/approvals (scope mine, or approver with --to-decide) and prints one aligned line per approval;
// `decide` posts a decision and prints the approval's resulting status. A refused decision (400 with
// its violations, 403, 404, 409) is printed by runRemote and exits 3 like every remote command.
import { unwrap, type PortcullisClient, type Schema } from '../../client/index.js';
import type { CommandSpec, OptionSpec } from './command-spec.js';
import { CONNECTION_OPTIONS } from './connection.js';
import { EXIT, REMOTE_NOTES } from './exit-codes.js';
import { alignedLines, allOf, PAGE_LIMIT, pagesOf, printList } from './listing.js';
import { groupUsage, noArguments, runRemote, UsageError, type RemoteIo } from './remote-command.js';
import { runnable } from '../runnable.js';

type Approval = Schema<'Approval'>;
type ApprovalStatus = Approval['status'];
type ApprovalQuery = { readonly scope?: 'mine' | 'approver'; readonly status?: ApprovalStatus };

const STATUSES = ['Pending', 'Approved', 'Rejected', 'Expired', 'Withdrawn'] as const satisfies readonly ApprovalStatus[];
const VERBS = { approve: 'Approve', reject: 'Reject' } as const;

/** `--comment` of every command that decides an approval. */
export const DECISION_COMMENT_OPTION: OptionSpec = { type: 'string', value: 'TEXT', description: 'A comment stored with the decision.' };

export const APPROVALS_LIST_SPEC: CommandSpec = {
  name: 'approvals list',
  positionals: '',
  summary:
    'List approvals, newest first: those of my runs, or with --to-decide those routed to my approver roles. One line each: id, kind, status, what it approves, who asked, time left.',
  options: {
    'to-decide': { type: 'boolean', default: false, description: 'Approvals routed to my approver or escalation roles (scope approver) instead of those of my runs.' },
    status: { type: 'string', value: 'STATUS', default: 'Pending', applyDefault: false, description: `Only approvals in this status: ${STATUSES.join(', ')}.` },
    ...CONNECTION_OPTIONS,
  },
  notes: REMOTE_NOTES,
};

export const APPROVALS_DECIDE_SPEC: CommandSpec = {
  name: 'approvals decide',
  positionals: 'APPROVAL_ID approve|reject',
  summary:
    'Approve or reject an approval of my runs or routed to me; prints its resulting status. The same decision again succeeds; a different one, or an expired approval, is refused (409).',
  options: {
    comment: DECISION_COMMENT_OPTION,
    payload: { type: 'string', value: 'JSON', description: 'The typed answer (any JSON value) an Approve must carry when the approval has a responseSchema.' },
    ...CONNECTION_OPTIONS,
  },
  notes: REMOTE_NOTES,
};

export const APPROVALS_USAGE = [
  'usage: portcullis approvals <subcommand> [options]',
  '',
  'subcommands:',
  '  list [--to-decide] [--status STATUS]     approvals of my runs, or routed to me to decide',
  '  decide APPROVAL_ID approve|reject        decide one (--comment TEXT, --payload JSON)',
  '',
  'each subcommand has --help',
].join('\n');

/** The command line that approves an approval, as hints print it (decision 1001: runnable as shown). */
export function decideHint(approvalId: string): string {
  return `${runnable('approvals decide', approvalId)} approve`;
}

export async function runApprovalsCommand(args: string[], io: RemoteIo): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'list':
      return runRemote(APPROVALS_LIST_SPEC, rest, io, async ({ values, positionals, client, json }) => {
        noArguments(positionals);
        const status = typeof values.status === 'string' ? statusOption(values.status) : undefined;
        const host: { notice?: string } = {};
        const approvals = await allOf(
          approvalsOf(client, { scope: values['to-decide'] === true ? 'approver' : 'mine', ...(status ? { status } : {}) }, (notice) => {
            host.notice = notice;
          }),
        );
        // The host's word on why the list may be empty (approvals switched off), where a person looks.
        if (host.notice !== undefined) io.stderr(`portcullis approvals list: ${host.notice}`);
        const none = `no ${status ?? 'Pending'} approvals ${values['to-decide'] === true ? 'routed to you' : 'of your runs'}`;
        printList(io, json, { approvals }, approvalLines(approvals, Date.now()), none);
        return EXIT.ok;
      });
    case 'decide':
      return runRemote(APPROVALS_DECIDE_SPEC, rest, io, async ({ values, positionals, client, json }) => {
        if (positionals.length !== 2) throw new UsageError('an approval id and approve or reject are needed');
        const [approvalId, verb] = positionals as [string, string];
        const decision = Object.hasOwn(VERBS, verb.toLowerCase()) ? VERBS[verb.toLowerCase() as keyof typeof VERBS] : undefined;
        if (decision === undefined) throw new UsageError(`the decision must be approve or reject, not '${verb}'`);
        const body: Schema<'ApprovalDecision'> = {
          decision,
          ...(typeof values.comment === 'string' ? { comment: values.comment } : {}),
          ...(typeof values.payload === 'string' ? { payload: parsePayload(values.payload) } : {}),
        };
        const decided = await unwrap(client.api.POST('/api/approvals/{approvalId}/decision', { params: { path: { approvalId } }, body }));
        io.stdout(json ? JSON.stringify(decided) : `approval ${decided.approvalId} ${decided.status}${decided.decision ? ` (decided by ${decided.decision.decidedBy})` : ''}`);
        return EXIT.ok;
      });
    default:
      return groupUsage('approvals', APPROVALS_USAGE, subcommand, io);
  }
}

/** Every approval the list route gives for this query, page after page (newest first). */
export async function* approvalsOf(client: PortcullisClient, query: ApprovalQuery = {}, onNotice?: (notice: string) => void): AsyncGenerator<Approval> {
  const fetchPage = async (cursor: string | undefined) => {
    const answer = client.api.GET('/api/approvals', { params: { query: { ...query, limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) } } });
    const notice = (await answer).response.headers.get('portcullis-notice');
    if (notice !== null) onNotice?.(notice);
    return unwrap(answer);
  };
  for await (const page of pagesOf(fetchPage)) {
    yield* page.approvals;
  }
}

/** One line per approval, its columns aligned: id, kind, status, what it approves, who asked, time left (or who decided). */
export function approvalLines(approvals: readonly Approval[], now: number): string[] {
  return alignedLines(approvals.map((a) => [a.approvalId, a.kind, a.status, subject(a), `requested by ${a.requestedBy ?? '(no name)'}`, standing(a, now)]));
}

/** What is being approved: the gate's step, or the tool call (and the workflow step that makes it). */
function subject(a: Approval): string {
  if (a.kind === 'HumanGate') return `step ${a.stepName ?? '?'}`;
  return `tool ${a.tool ?? '?'} ${a.operation ?? ''}`.trimEnd() + (a.stepName === undefined ? '' : ` at step ${a.stepName}`);
}

function standing(a: Approval, now: number): string {
  if (a.decision !== undefined) return `decided by ${a.decision.decidedBy}`;
  if (a.status !== 'Pending') return '';
  if (a.expiresAt === null) return 'never expires';
  const left = Date.parse(a.expiresAt) - now;
  return left > 0 ? `expires in ${timeLeft(left)}` : 'expired';
}

/** A positive span as its two largest units: `1d 4h`, `23h 59m`, `5m 0s`, `12s`. */
export function timeLeft(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const units: Array<[string, number]> = [
    ['d', Math.floor(seconds / 86_400)],
    ['h', Math.floor(seconds / 3600) % 24],
    ['m', Math.floor(seconds / 60) % 60],
    ['s', seconds % 60],
  ];
  const first = units.findIndex(([, n]) => n > 0);
  if (first === -1) return '0s';
  return units
    .slice(first, first + 2)
    .map(([unit, n]) => `${n}${unit}`)
    .join(' ');
}

function statusOption(text: string): ApprovalStatus {
  const status = STATUSES.find((s) => s.toLowerCase() === text.toLowerCase());
  if (status === undefined) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  return status;
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError('--payload must be JSON (quote it for the shell: --payload \'{"version":"1.2"}\')');
  }
}
