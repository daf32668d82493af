// DESIGN §12: `portcullis --version`, and `--help` on every command and subcommand, exit 0; each
// command's help lists its options with their defaults.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from './cli-io.js';
import { runCli } from './run-cli.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const commandIo: CommandIo = {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    cwd: process.cwd(),
    env: {},
    signal: new AbortController().signal,
  };
  return { io: commandIo, out, err };
}

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('portcullis', () => {
  it('prints the package version for --version and exits 0', async () => {
    const t = io();
    expect(await runCli(['--version'], t.io)).toBe(0);
    expect(t.out).toEqual([`portcullis ${pkg.version}`]);
  });

  it('exits 2 with the usage for no command or an unknown one', async () => {
    for (const argv of [[], ['serv']]) {
      const t = io();
      expect(await runCli(argv, t.io)).toBe(2);
      expect(t.err.join('\n')).toContain('usage: portcullis <command>');
    }
  });

  it.each([
    [['--help'], ['serve', 'dev-idp', 'token', 'bundle pack', '--version']],
    [['serve', '--help'], ['--config FILE', '(default: none)', '--port N', '(default: $PORT, else 8080)', '--host H', '(default: $HOST, else 127.0.0.1)']],
    [['dev-idp', '--help'], ['--port N', '--state DIR', '(default: .portcullis)']],
    [['token', '--help'], ['--sub S', '--oid O', '--role R', '--ttl T', '(default: 1h)', '--state DIR', '(default: .portcullis)']],
    [['bundle', '--help'], ['pack DIR [-o FILE]', 'run DIR-or-ZIP --message TEXT...', 'bundle run --help']],
    [['bundle', 'pack', '--help'], ['-o, --output FILE', '(default: <folder name>.zip in the working directory)']],
  ])('answers %j with exit 0 and its options with defaults on stdout', async (argv, expected) => {
    const t = io();
    expect(await runCli(argv, t.io)).toBe(0);
    expect(t.err).toEqual([]);
    const help = t.out.join('\n');
    for (const text of expected) expect(help).toContain(text);
    expect(help).toContain('-h, --help');
  });
});
