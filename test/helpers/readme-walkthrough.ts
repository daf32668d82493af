// Runs one README walkthrough (the runnable blocks of one session, readme-blocks.ts) the way a reader
// pastes it, in terminal windows (terminal.ts) opened in a checkout:
// - every command is typed into the terminal its block's `# terminal N` names, else where the reader
//   is typing; a command that keeps running (a `background` block's service) keeps its terminal,
//   so what the reader types next goes to a new one; typing into a terminal whose service is still
//   running, or a `restart` block, first stops that service (the reader's Ctrl-C);
// - the README's fixed ports (every host:port and --port number of the walkthrough, and 8080,
//   npm start's and the CLI's default, given as PORT and PORTCULLIS_URL) become free ports, the
//   same number the same port throughout; `/tmp/` becomes a folder of the walkthrough's own;
// - nothing else is filled in: the ids a block uses are the ones earlier commands captured into
//   shell variables (`HANDLE=$(curl … | jq -r .handle)`), the files it uses are the ones it wrote
//   (`cat > FILE <<'YAML'`), and a variable nothing set is an error (`set -u`), as a pasted block
//   must not rely on the reader's own $EDITOR, project or token;
// - `npm install` is a shell function that says it is skipped: node_modules and dist/ are in place.
// It asserts nothing about outputs beyond the block options (`expect`, `until`, `poll`); a command
// that fails, or a shell that exits, fails the walkthrough with what its terminals show.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import type { RunnableBlock } from './readme-blocks.js';
import { freePort } from './free-port.js';
import { Terminal } from './terminal.js';

const DEFAULT_PORT = 8080;
const COMMAND_TIMEOUT_MS = 60_000;
const READY_TIMEOUT_MS = 60_000;
const POLL_TIMEOUT_MS = 30_000;
/** How long a polling reader waits before running the command again. */
const POLL_INTERVAL_MS = 100;

export interface WalkthroughOptions {
  /** The checkout the terminals open in. */
  readonly cwd: string;
  /** A folder of this walkthrough's own (its /tmp). */
  readonly scratch: string;
  /** The environment every terminal starts with (PATH, HOME, npm's settings); PORT and PORTCULLIS_URL are added. */
  readonly env: Record<string, string>;
}

export class Walkthrough {
  readonly name: string;
  readonly #blocks: readonly RunnableBlock[];
  readonly #options: WalkthroughOptions;
  readonly #ports: ReadonlyMap<number, number>;
  readonly #terminals = new Map<string, Terminal>();
  /** Terminals whose foreground command is a service that keeps running. */
  readonly #serving = new Set<string>();
  #current: string | undefined;
  #opened = 0;

  private constructor(name: string, blocks: readonly RunnableBlock[], options: WalkthroughOptions, ports: ReadonlyMap<number, number>) {
    this.name = name;
    this.#blocks = blocks;
    this.#options = options;
    this.#ports = ports;
  }

  static async start(name: string, blocks: readonly RunnableBlock[], options: WalkthroughOptions): Promise<Walkthrough> {
    const ports = new Map<number, number>();
    for (const port of [DEFAULT_PORT, ...blocks.flatMap(readmePorts)]) if (!ports.has(port)) ports.set(port, await freePort());
    await mkdir(join(options.scratch, 'tmp'), { recursive: true });
    return new Walkthrough(name, blocks, options, ports);
  }

  get blocks(): readonly RunnableBlock[] {
    return this.#blocks;
  }

  /** The port that stands for the README's `port`. */
  port(port: number): number {
    const mapped = this.#ports.get(port);
    if (mapped === undefined) throw new Error(`the walkthrough uses no port ${port}`);
    return mapped;
  }

  /** What terminal `name` printed (`# terminal N`: N). */
  output(name: string): string {
    const terminal = this.#terminals.get(name);
    if (terminal === undefined) throw new Error(`no terminal ${name}`);
    return terminal.output;
  }

  async runAll(): Promise<void> {
    for (const block of this.#blocks) await this.run(block);
  }

  /** Types one block's commands and checks its options; throws with the README line and what the terminals show. */
  async run(block: RunnableBlock): Promise<void> {
    try {
      await this.#run(block);
    } catch (error) {
      throw new Error(`README.md:${block.line} (${this.name}): ${(error as Error).message}\n${this.#transcript()}`, { cause: error });
    }
  }

  async #run(block: RunnableBlock): Promise<void> {
    const { options } = block;
    if (options.restart) for (const name of [...this.#serving]) await this.#close(name);
    const printed: string[] = [];
    const polled = options.poll === undefined ? -1 : pollIndex(block, options.poll);
    let last: { terminal: Terminal; from: number } | undefined;
    for (const [index, command] of block.commands.entries()) {
      const [name, terminal] = await this.#terminalFor(command.terminal);
      const text = this.#asTyped(command.text);
      const from = terminal.output.length;
      const typed = await terminal.type(text, { timeoutMs: COMMAND_TIMEOUT_MS, ...(options.background ? { running: this.#asTyped(options.until ?? 'listening on') } : {}) });
      if (typed.state === 'running') this.#serving.add(name);
      let { output } = typed;
      if (index === polled) output = await poll(terminal, text, this.#asTyped(options.poll!), output);
      printed.push(output);
      last = { terminal, from };
    }
    if (last === undefined) return;
    if (options.until !== undefined && !options.background) await last.terminal.until(this.#asTyped(options.until), { from: last.from, timeoutMs: READY_TIMEOUT_MS });
    const all = printed.join('\n');
    for (const text of options.expect.map((expected) => this.#asTyped(expected))) {
      if (!all.includes(text)) throw new Error(`the block did not print ${JSON.stringify(text)}; it printed:\n${all}`);
    }
  }

  /** Stops every terminal and what it started; nothing of them is left running afterwards. */
  async stop(): Promise<void> {
    await Promise.all([...this.#terminals.keys()].map((name) => this.#close(name)));
  }

  async #close(name: string): Promise<void> {
    const terminal = this.#terminals.get(name);
    this.#terminals.delete(name);
    this.#serving.delete(name);
    if (this.#current === name) this.#current = undefined;
    await terminal?.stop();
  }

  /** The terminal a command goes to: its `# terminal N`, else the one the reader types in, else a new one. */
  async #terminalFor(label: string | undefined): Promise<[string, Terminal]> {
    let name = label ?? this.#current;
    if (name !== undefined && this.#serving.has(name)) {
      if (label !== undefined) await this.#close(name);
      else name = undefined;
    }
    name ??= `(new terminal ${(this.#opened += 1)})`;
    let terminal = this.#terminals.get(name);
    if (terminal === undefined) {
      terminal = new Terminal({ cwd: this.#options.cwd, env: this.#env(), prelude: PRELUDE });
      this.#terminals.set(name, terminal);
    }
    this.#current = name;
    return [name, terminal];
  }

  #env(): Record<string, string> {
    const port = this.port(DEFAULT_PORT);
    return { ...this.#options.env, PORT: String(port), PORTCULLIS_URL: `http://127.0.0.1:${port}` };
  }

  /** The command as this walkthrough types it: free ports, its own /tmp. */
  #asTyped(text: string): string {
    let typed = text;
    for (const [readme, free] of this.#ports) typed = typed.replace(new RegExp(`\\b${readme}\\b`, 'g'), String(free));
    return typed.replaceAll('/tmp/', `${join(this.#options.scratch, 'tmp')}/`);
  }

  #transcript(): string {
    return [...this.#terminals].map(([name, terminal]) => `--- terminal ${name}${this.#serving.has(name) ? ' (serving)' : ''} ---\n${terminal.transcript.slice(-6_000)}`).join('\n');
  }
}

/** The command the README shows printing `text` (the poll a reader repeats), else the block's last. */
function pollIndex(block: RunnableBlock, text: string): number {
  const shown = block.commands.findIndex((command) => command.shown.some((line) => line.includes(text)));
  return shown === -1 ? block.commands.length - 1 : shown;
}

/** Runs a command again, as a reader polls, until it prints `wanted`; returns what it printed last. */
async function poll(terminal: Terminal, command: string, wanted: string, first: string): Promise<string> {
  const deadline = Date.now() + POLL_TIMEOUT_MS;
  let output = first;
  while (!output.includes(wanted)) {
    if (Date.now() > deadline) throw new Error(`polled for ${POLL_TIMEOUT_MS} ms; \`${command}\` never printed ${JSON.stringify(wanted)}`);
    await setTimeout(POLL_INTERVAL_MS);
    output = (await terminal.type(command, { timeoutMs: COMMAND_TIMEOUT_MS })).output;
  }
  return output;
}

/** Typed first in every terminal: `npm install` skipped, and a variable nothing set is an error, not an empty word. */
const PRELUDE = `npm() { if [ "\${1-}" = install ]; then echo "(npm install: skipped; this clone has node_modules linked and dist/ built)"; else command npm "$@"; fi; }\nset -u`;

/** The fixed ports a block uses: every 127.0.0.1/localhost URL's and every --port. */
function readmePorts(block: RunnableBlock): number[] {
  const text = block.commands.map((command) => command.text).join('\n');
  return [...text.matchAll(/(?:127\.0\.0\.1|localhost):(\d{2,5})\b|--port[= ](\d{2,5})\b/g)].map((match) => Number(match[1] ?? match[2]));
}
