// `portcullis workflow submit FILE | run ID [--input JSON] [--watch] | approve|reject JOB APPROVAL
// [--comment TEXT]`: definitions from a JSON or YAML file, runs followed live (progress frames,
// reconnecting with Last-Event-ID), approvals answered by job and approval id alone.
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { unwrap, type PortcullisClient, type Schema, type WorkflowProgressFrame } from '../../client/index.js';
import { SAFE_YAML_OPTIONS } from '../../platform/yaml/index.js';
import type { CommandSpec } from './command-spec.js';
import { CONNECTION_OPTIONS } from './connection.js';
import { EXIT, REMOTE_NOTES } from './exit-codes.js';
import { jsonObjectOption } from './option-values.js';
import { groupUsage, runRemote, UsageError, type RemoteIo } from './remote-command.js';
import { approvalsOf, DECISION_COMMENT_OPTION, decideHint } from './run-approvals.js';
import { runnable } from '../runnable.js';

export const WORKFLOW_SUBMIT_SPEC: CommandSpec = {
  name: 'workflow submit',
  positionals: 'FILE',
  summary: 'Submit a workflow definition from a JSON or YAML file; prints its id (every diagnostic at once when refused).',
  options: { ...CONNECTION_OPTIONS },
  notes: REMOTE_NOTES,
};

export const WORKFLOW_RUN_SPEC: CommandSpec = {
  name: 'workflow run',
  positionals: 'WORKFLOW_ID',
  summary: 'Start a run of a stored workflow; with --watch, follow its progress until it finishes or waits for an approval.',
  options: {
    input: { type: 'string', value: 'JSON', description: 'A JSON object merged over the definition’s configuration.input.' },
    watch: { type: 'boolean', default: false, description: 'Follow the run’s progress stream (exit 1 when it fails).' },
    ...CONNECTION_OPTIONS,
  },
  notes: REMOTE_NOTES,
};

const decisionSpec = (verb: 'approve' | 'reject'): CommandSpec => ({
  name: `workflow ${verb}`,
  positionals: 'JOB_ID APPROVAL_ID',
  summary: `${verb === 'approve' ? 'Approve' : 'Reject'} a pending approval of a run (${runnable('workflow run ID --watch')} prints the job id first, the approval id at the gate).`,
  options: { comment: DECISION_COMMENT_OPTION, ...CONNECTION_OPTIONS },
  notes: REMOTE_NOTES,
});
export const WORKFLOW_APPROVE_SPEC = decisionSpec('approve');
export const WORKFLOW_REJECT_SPEC = decisionSpec('reject');

export const WORKFLOW_USAGE = [
  'usage: portcullis workflow <subcommand> [options]',
  '',
  'subcommands:',
  '  submit FILE                    submit a definition (JSON or YAML)',
  '  run WORKFLOW_ID [--watch]      start a run, optionally follow it',
  '  approve JOB_ID APPROVAL_ID     approve a pending approval',
  '  reject JOB_ID APPROVAL_ID      reject a pending approval',
  '',
  'each subcommand has --help',
].join('\n');

export async function runWorkflowCommand(args: string[], io: RemoteIo): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'submit':
      return runRemote(WORKFLOW_SUBMIT_SPEC, rest, io, async ({ positionals, client, json }) => {
        if (positionals.length !== 1) throw new UsageError('exactly one definition file is needed');
        const definition = await readDefinition(resolve(io.cwd, positionals[0]!));
        const stored = await unwrap(client.api.POST('/api/workflows', { body: definition as Schema<'WorkflowDefinition'> }));
        io.stdout(json ? JSON.stringify(stored) : `submitted workflow ${stored.id} (${stored.name}, ${stored.steps.length} steps)`);
        return EXIT.ok;
      });
    case 'run':
      return runRemote(WORKFLOW_RUN_SPEC, rest, io, async ({ values, positionals, client, json }) => {
        if (positionals.length !== 1) throw new UsageError('exactly one workflow id is needed');
        const workflowId = positionals[0]!;
        const input = typeof values.input === 'string' ? jsonObjectOption(values.input, '--input') : undefined;
        const started = await unwrap(
          client.api.POST('/api/workflows/{workflowId}/runs', { params: { path: { workflowId } }, ...(input ? { body: { input } } : {}) }),
        );
        if (values.watch !== true) {
          io.stdout(json ? JSON.stringify(started) : `started run ${started.jobId} of workflow ${workflowId}`);
          return EXIT.ok;
        }
        return watch(client, workflowId, started.jobId, io, json);
      });
    case 'approve':
    case 'reject':
      return runRemote(subcommand === 'approve' ? WORKFLOW_APPROVE_SPEC : WORKFLOW_REJECT_SPEC, rest, io, async ({ values, positionals, client, json }) => {
        if (positionals.length !== 2) throw new UsageError('a job id and an approval id are needed');
        const [jobId, approvalId] = positionals as [string, string];
        const workflowId = await workflowOfApproval(client, jobId, approvalId);
        if (workflowId === undefined) {
          io.stderr(`portcullis workflow ${subcommand}: no pending approval ${approvalId} of run ${jobId} for this caller`);
          return EXIT.refused;
        }
        const decided = await unwrap(
          client.api.POST('/api/workflows/{workflowId}/runs/{jobId}/approvals/{approvalId}', {
            params: { path: { workflowId, jobId, approvalId } },
            body: { decision: subcommand === 'approve' ? 'Approve' : 'Reject', ...(typeof values.comment === 'string' ? { comment: values.comment } : {}) },
          }),
        );
        io.stdout(json ? JSON.stringify(decided) : `${decided.decision === 'Approve' ? 'approved' : 'rejected'} ${approvalId}; the run goes on`);
        return EXIT.ok;
      });
    default:
      return groupUsage('workflow', WORKFLOW_USAGE, subcommand, io);
  }
}

async function readDefinition(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch(() => {
    throw new UsageError(`cannot read ${path}`);
  });
  try {
    return ['.yaml', '.yml'].includes(extname(path).toLowerCase()) ? (parseYaml(text, SAFE_YAML_OPTIONS) as unknown) : (JSON.parse(text) as unknown);
  } catch (error) {
    throw new UsageError(`${path} is not valid ${extname(path).toLowerCase().startsWith('.y') ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
}

/** Follows the run's frames; exit 0 when it Succeeded or parked on an approval, 1 when it failed. */
async function watch(client: PortcullisClient, workflowId: string, jobId: string, io: RemoteIo, json: boolean): Promise<number> {
  let last: WorkflowProgressFrame | undefined;
  for await (const { frame } of client.workflowProgress(workflowId, jobId, { signal: io.signal })) {
    last = frame;
    if (json) io.stdout(JSON.stringify(frame));
    else io.stdout(describeFrame(frame));
  }
  if (last?.type === 'PARKED') return EXIT.ok;
  const status = last?.type === 'FINISHED' || last?.type === 'SNAPSHOT' ? last.status : undefined;
  return status === 'Succeeded' ? EXIT.ok : EXIT.failed;
}

/** One line per progress frame; at a gate, the exact command that approves it (`approvals decide`, runnable as printed). */
export function describeFrame(frame: WorkflowProgressFrame): string {
  switch (frame.type) {
    case 'SNAPSHOT':
      return `run ${frame.jobId}: ${frame.status}${frame.steps.length > 0 ? ` (${frame.steps.map((s) => `${s.name} ${s.status}`).join(', ')})` : ''}`;
    case 'STEP':
      return `step ${frame.stepName}: ${frame.status}${frame.error ? ` (${frame.error})` : ''}`;
    case 'PARKED':
      return `waiting for approval at step ${frame.stepName}: ${decideHint(frame.approvalId)}   (or reject)`;
    case 'FINISHED':
      return `run ${frame.status}${frame.error ? `: ${frame.error}` : ''}`;
    case 'GAP':
      return `(${frame.droppedCount} progress frames dropped; poll the run for its state)`;
  }
}

/** The workflow a pending approval belongs to, from the caller's approval list. */
async function workflowOfApproval(client: PortcullisClient, jobId: string, approvalId: string): Promise<string | undefined> {
  for await (const approval of approvalsOf(client)) if (approval.jobId === jobId && approval.approvalId === approvalId) return approval.workflowId;
  return undefined;
}
