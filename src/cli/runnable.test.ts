// Every hint the CLI prints names a command line runnable as printed (decision 1001): `npx portcullis …`,
// and the command it names exists — run in-process with --help it answers 0.
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { RUNNABLE_PREFIX, runnable } from './runnable.js';
import { decideHint } from './remote/run-approvals.js';
import { deliveriesHint, WEBHOOK_USAGE } from './remote/run-webhooks.js';
import { SCHEDULE_USAGE } from './remote/run-schedules.js';
import { WORKFLOW_APPROVE_SPEC } from './remote/run-workflow.js';

const HINTS: Readonly<Record<string, string>> = {
  'workflow run --watch at a gate': decideHint('Abc123def456ghi789jkl012'),
  'an approval id that begins with -': decideHint('-bc123def456ghi789jkl012'),
  'webhook test': deliveriesHint('-webhook1'),
  'webhook usage': WEBHOOK_USAGE,
  'schedule usage': SCHEDULE_USAGE,
  'workflow approve --help': WORKFLOW_APPROVE_SPEC.summary,
  'token without a dev-idp': `run '${runnable('dev-idp')}' first`,
  'dev-idp started': `mint a token with: ${runnable('token --sub alice')}`,
};

/** The words of each `npx portcullis …` in a text, up to the first id, placeholder or `--`. */
function commandsIn(text: string): string[][] {
  return [...text.matchAll(/npx portcullis ([a-z][a-z -]*)/g)].map((match) => match[1]!.trim().split(' ').filter((word) => /^[a-z][a-z-]*$/.test(word)));
}

describe('the hints the CLI prints', () => {
  it('print the runnable form and no bare `portcullis <command>`', () => {
    expect(decideHint('Abc123def456ghi789jkl012')).toBe('npx portcullis approvals decide Abc123def456ghi789jkl012 approve');
    expect(decideHint('-bc')).toBe('npx portcullis approvals decide -- -bc approve');
    expect(deliveriesHint('-webhook1')).toBe('npx portcullis webhook deliveries -- -webhook1');
    for (const [where, text] of Object.entries(HINTS)) {
      expect(text, where).toContain(RUNNABLE_PREFIX);
      expect(text.replaceAll(RUNNABLE_PREFIX, '').replace(/^usage: portcullis /, ''), where).not.toMatch(/\bportcullis (?!<)[a-z]/);
    }
  });

  it.each(Object.entries(HINTS))('name a command that exists (%s)', async (_where, text) => {
    for (const words of commandsIn(text)) {
      const out: string[] = [];
      const io = { stdout: (line: string) => void out.push(line), stderr: () => undefined, cwd: '/', env: {}, signal: new AbortController().signal };
      // `approvals decide ID approve`: the first word that is not a subcommand ends the command.
      const command = words[0] === 'token' || words[0] === 'dev-idp' ? words.slice(0, 1) : words.slice(0, 2);
      expect(await runCli([...command, '--help'], io), command.join(' ')).toBe(0);
      expect(out.join('\n')).toMatch(/usage: portcullis /);
    }
  });
});
