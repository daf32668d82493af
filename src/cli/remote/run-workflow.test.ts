import { describe, expect, it } from 'vitest';
import { parseCommand } from './command-spec.js';
import { describeFrame, WORKFLOW_APPROVE_SPEC } from './run-workflow.js';

const parked = (approvalId: string) => ({ type: 'PARKED', approvalId, stepName: 'sign-off', sequence: 3 }) as const;

/** The arguments after `portcullis workflow approve` in a printed hint. */
function hintArgs(line: string): string[] {
  const args = /portcullis workflow approve (.*?) {3}\(or reject\)$/.exec(line)![1]!;
  return args.split(' ');
}

describe('the approval hint of workflow run --watch', () => {
  it('names the job and the approval as the approve command takes them', () => {
    const line = describeFrame(parked('Abc123def456ghi789jkl012'), 'Job123def456ghi789jkl012');
    expect(line).toBe('waiting for approval at step sign-off: portcullis workflow approve Job123def456ghi789jkl012 Abc123def456ghi789jkl012   (or reject)');
    const parsed = parseCommand(WORKFLOW_APPROVE_SPEC, hintArgs(line));
    expect(parsed).toMatchObject({ kind: 'run', positionals: ['Job123def456ghi789jkl012', 'Abc123def456ghi789jkl012'] });
  });

  it('puts ids that begin with a dash after --, so the command reads them as ids, not options', () => {
    for (const [jobId, approvalId] of [
      ['Job123def456ghi789jkl012', '-bc123def456ghi789jkl012'],
      ['-ob123def456ghi789jkl012', 'Abc123def456ghi789jkl012'],
      ['--b123def456ghi789jkl012', '-bc123def456ghi789jkl012'],
    ] as const) {
      const args = hintArgs(describeFrame(parked(approvalId), jobId));
      expect(args[0]).toBe('--');
      expect(parseCommand(WORKFLOW_APPROVE_SPEC, args)).toMatchObject({ kind: 'run', positionals: [jobId, approvalId] });
    }
    expect(parseCommand(WORKFLOW_APPROVE_SPEC, ['Job123def456ghi789jkl012', '-bc123def456ghi789jkl012']).kind).toBe('usage');
  });
});
