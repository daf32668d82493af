// A bash session that commands are typed into, as a reader types them into a terminal window: its
// own process group (so `stop` ends it with everything it started, npm's children and `&` jobs
// included), stdout and stderr kept in `output` (two pipes, as a terminal's are two files: `serve`
// prints its plain banner, not the JSON line it prints into a merged log), `set -e -o pipefail` so a
// failing command ends it.
// It does not interpret what is typed; readme-walkthrough.ts decides what goes where.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { eventually } from './eventually.js';

export interface TerminalOptions {
  readonly cwd: string;
  /** The whole environment of the shell (nothing is inherited). */
  readonly env: Record<string, string>;
  /** Typed before anything else (shell functions, options). */
  readonly prelude?: string;
}

/** A typed command that finished, or one that is still running once `running` was printed. */
export interface Typed {
  readonly state: 'finished' | 'running';
  /** What the terminal printed from the moment the command was typed. */
  readonly output: string;
}

export class Terminal {
  readonly #child: ChildProcess;
  readonly #exit: Promise<void>;
  readonly #nonce = randomBytes(6).toString('hex');
  #typed = 0;
  #exited = false;
  output = '';

  constructor(options: TerminalOptions) {
    this.#child = spawn('bash', [], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer): void => void (this.output += chunk.toString('utf8'));
    this.#child.stdout!.on('data', keep);
    this.#child.stderr!.on('data', keep);
    this.#exit = new Promise((resolve) =>
      this.#child.once('exit', () => {
        this.#exited = true;
        resolve();
      }),
    );
    // A failing command ends the shell (set -e); the trap says which one, with its status.
    this.#child.stdin!.write(`set -e -o pipefail\ntrap 'printf "\\n<<%s exited %s>>\\n" "$BASH_COMMAND" "$?" >&2' ERR\n${options.prelude ?? ''}\n`);
  }

  /** What it printed, without the lines `type` adds to know when a command is done. */
  get transcript(): string {
    return this.output.replace(new RegExp(`\\n?<<${this.#nonce} \\d+ exited 0>>\\n`, 'g'), '');
  }

  get exited(): boolean {
    return this.#exited;
  }

  /**
   * Types one command and waits until it has finished, or, when `running` is given, until it has
   * printed that text and gone idle (a service that keeps running, ready: everything it writes at
   * start-up, into a file too, is written). Its stdin is /dev/null, so a command never reads
   * what is typed after it. Rejects, naming the command (`transcript` has what it printed), when it
   * exits non-zero, when the shell exits (set -e) or when the time is up.
   */
  async type(command: string, options: { readonly timeoutMs: number; readonly running?: string }): Promise<Typed> {
    if (this.#exited) throw new Error(`the terminal has exited, so \`${command}\` cannot be typed`);
    const from = this.output.length;
    const done = `<<${this.#nonce} ${(this.#typed += 1)} exited `;
    const finished = new RegExp(`\\n?${done}(\\d+)>>\\n`, 'g');
    // The status is printed too (set -e lets `a && b` pass when `a` fails, but not this check), on
    // stdout and on stderr: all the command printed on either has arrived once both markers have.
    this.#child.stdin!.write(`{\n${command}\n} </dev/null\n__status=$?; for __fd in 1 2; do printf '\\n%s%s>>\\n' '${done}' "$__status" >&$__fd; done\n`);
    const waited = await eventually(async () => {
      const printed = this.output.slice(from);
      if ((printed.match(finished) ?? []).length === 2) return 'finished';
      if (options.running !== undefined && printed.includes(options.running) && (await this.#idle())) return 'running';
      return this.#exited ? 'exited' : undefined;
    }, options.timeoutMs).catch(() => 'timed out');
    const printed = this.output.slice(from);
    const markers = [...printed.matchAll(finished)];
    if (markers.length === 2 && markers[0]![1] === '0') return { state: 'finished', output: printed.slice(0, markers[1]!.index).replace(finished, '') };
    if (markers.length < 2 && waited === 'running') return { state: 'running', output: printed };
    const marker = markers[0];
    const why =
      marker !== undefined
        ? `it exited ${marker[1]}`
        : waited === 'exited'
          ? 'it failed, and the shell exited (set -e)'
          : `it neither finished${options.running === undefined ? '' : ` nor printed ${JSON.stringify(options.running)}`} within ${options.timeoutMs} ms`;
    throw new Error(`\`${command}\`: ${why}`);
  }

  /**
   * Whether every process of the shell's group is asleep, waiting for input or a request (Linux's
   * /proc; elsewhere assumed): a service that printed "listening on" has also finished what it writes
   * with it (a reader waits as a person would, not at the first byte).
   */
  async #idle(): Promise<boolean> {
    const pids = await readdir('/proc').catch(() => []);
    for (const pid of pids.filter((name) => /^\d+$/.test(name))) {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      // After the command name in parentheses: state, ppid, process group.
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === this.#child.pid && (state === 'R' || state === 'D')) return false;
    }
    return true;
  }

  /** Waits until the terminal has printed `text` after offset `from` (a background job prints when it prints). */
  async until(text: string, options: { readonly from: number; readonly timeoutMs: number }): Promise<void> {
    const seen = await eventually(async () => (this.output.slice(options.from).includes(text) ? true : this.#exited ? false : undefined), options.timeoutMs).catch(() => false);
    if (!seen) throw new Error(`the terminal did not print ${JSON.stringify(text)} (within ${options.timeoutMs} ms, or before its shell exited)`);
  }

  /** Ends the shell and everything it started: SIGTERM to its process group, SIGKILL to what is left after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    const group = this.#child.pid;
    if (group === undefined) return;
    const signal = (name: NodeJS.Signals | 0): boolean => {
      try {
        process.kill(-group, name);
        return true;
      } catch {
        return false; // ESRCH: nothing of the group is left
      }
    };
    const gone = (timeoutMs: number): Promise<boolean> => eventually(async () => (signal(0) ? undefined : true), timeoutMs).catch(() => false);
    if (!signal('SIGTERM')) return;
    if (!(await gone(graceMs))) {
      signal('SIGKILL');
      if (!(await gone(5_000))) throw new Error(`process group ${group} survived SIGKILL`);
    }
    await this.#exit;
  }
}
