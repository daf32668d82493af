// The built `portcullis` executable (dist/, produced by `npm run build`, which `npm ci` runs) as a
// child process: run a command to its exit, or start `serve` and wait for its URL line. Or the same
// command in this process (runCliInProcess): the executable's own dispatch with an io of its own,
// for tests that check what a command does rather than how the executable starts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandIo } from '../../src/cli/cli-io.js';
import { runCli as dispatch } from '../../src/cli/run-cli.js';

export const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function requireBuild(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
}

export function runCli(args: string[], options: { readonly cwd: string; readonly env: Record<string, string> }): Promise<CliResult> {
  requireBuild();
  return runProcess(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env } });
}

/**
 * A command run as main.ts runs it — runCli with stdout and stderr as whole lines, partial writes to
 * stdout, an abort signal, the failure of a command that throws printed as `portcullis: <message>`
 * with exit code 1 — but in this process, with exactly the environment given (and PATH), the way
 * runCli's child gets it. No terminal: progress comes as plain lines, as from a CI job.
 */
export async function runCliInProcess(args: string[], options: { readonly cwd: string; readonly env: Record<string, string> }): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    stdout: (line) => void (stdout += `${line}\n`),
    stderr: (line) => void (stderr += `${line}\n`),
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    signal: new AbortController().signal,
    write: (text) => void (stdout += text),
  };
  let code: number;
  try {
    code = await dispatch(args, io);
  } catch (error) {
    stderr += `portcullis: ${error instanceof Error ? error.message : String(error)}\n`;
    code = 1;
  }
  return { code, stdout, stderr };
}

/** Any command run to its exit with exactly the environment given, its output collected. */
export function runProcess(command: string, args: string[], options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  output(): { readonly stdout: string; readonly stderr: string };
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `portcullis serve --port 0` and resolves once it prints its URL (rejects if it exits first). */
export function startServe(options: { readonly cwd: string; readonly env: Record<string, string> }): Promise<ServeProcess> {
  requireBuild();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /^listening on (\S+)$/m.exec(stdout);
      if (match?.[1] !== undefined) {
        resolve({
          url: match[1],
          child,
          output: () => ({ stdout, stderr }),
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)));
  });
}
