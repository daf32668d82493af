import { describe, expect, it } from 'vitest';
import { parseCommand } from './command-spec.js';
import { APPROVALS_DECIDE_SPEC } from './run-approvals.js';
import { describeFrame } from './run-workflow.js';

const parked = (approvalId: string) => ({ type: 'PARKED', approvalId, stepName: 'sign-off', sequence: 3 }) as const;

/** The arguments after `npx portcullis approvals decide` in a printed hint. */
function hintArgs(line: string): string[] {
  const args = /npx portcullis approvals decide (.*?) {3}\(or reject\)$/.exec(line)![1]!;
  return args.split(' ');
}

describe('the approval hint of workflow run --watch', () => {
  it('prints the runnable approvals decide command for the approval (decision 1001: npx portcullis …)', () => {
    const line = describeFrame(parked('Abc123def456ghi789jkl012'));
    expect(line).toBe('waiting for approval at step sign-off: npx portcullis approvals decide Abc123def456ghi789jkl012 approve   (or reject)');
    const parsed = parseCommand(APPROVALS_DECIDE_SPEC, hintArgs(line));
    expect(parsed).toMatchObject({ kind: 'run', positionals: ['Abc123def456ghi789jkl012', 'approve'] });
  });

  it('puts an id that begins with a dash after --, so the command reads it as an id, not an option', () => {
    for (const approvalId of ['-bc123def456ghi789jkl012', '--c123def456ghi789jkl012']) {
      const args = hintArgs(describeFrame(parked(approvalId)));
      expect(args[0]).toBe('--');
      expect(parseCommand(APPROVALS_DECIDE_SPEC, args)).toMatchObject({ kind: 'run', positionals: [approvalId, 'approve'] });
    }
    expect(parseCommand(APPROVALS_DECIDE_SPEC, ['-bc123def456ghi789jkl012', 'approve']).kind).toBe('usage');
  });
});
