// The README's runnable shell blocks, in document order, grouped by walkthrough. A block is runnable
// when the line before its ```sh / ```bash fence is an HTML comment (invisible once rendered):
//
//   <!-- runnable -->                               typed into the walkthrough's terminal; must succeed
//   <!-- runnable: background -->                   starts a service: a command that prints "listening on"
//                                                   before it finishes keeps running, the next one goes on
//   <!-- runnable: session="Five-minute quickstart" expect='"verdict":"Pass"' -->
//
// Options: `session` (the walkthrough the block belongs to; default: the ## section it sits in, so a
// block names another section's walkthrough when it continues that one's terminals), `background`,
// `restart` (the reader stops the walkthrough's running services first, to start one again),
// `until` (text to wait for: what a `background` command prints once ready, default "listening on";
// otherwise what a background job prints after the block), `poll` (the block's last command is run
// again, as a reader polls, until it prints this text) and `expect` (text the block must print; may
// repeat). Values are quoted with " or '. How a walkthrough runs them: readme-walkthrough.ts.
//
// Each block is split into the commands a reader pastes: every line outside a comment, continued
// while a quote or `$(` is open, a line ends in `\` or a here-document (`cat > FILE <<'YAML'` … `YAML`)
// is not yet closed: its lines are the command's, `#` lines included. A `# terminal N` comment line
// sends what follows to terminal N; the comments after a command are the output the README shows for
// it. A block shows no `$ ` prompts (a reader pastes it whole): a line that starts with one is refused.

export interface BlockOptions {
  readonly background: boolean;
  readonly restart: boolean;
  readonly until?: string;
  readonly poll?: string;
  readonly expect: readonly string[];
}

export interface Command {
  /** As written, without the prompt. */
  readonly text: string;
  /** The output the README shows for it (comment lines without their `# `, or the lines under a prompt). */
  readonly shown: readonly string[];
  /** The `# terminal N` it is typed into; undefined: wherever the reader is typing. */
  readonly terminal?: string;
  /** 1-based line in README.md. */
  readonly line: number;
}

export interface RunnableBlock {
  readonly session: string;
  readonly section: string;
  readonly line: number;
  readonly options: BlockOptions;
  readonly commands: readonly Command[];
}

const MARKER = /^<!--\s*runnable(?::(.*?))?\s*-->\s*$/;
const OPTION = /([a-z]+)(?:=(?:"([^"]*)"|'([^']*)'|(\S+)))?/y;
const FLAGS = new Set(['background', 'restart']);
const VALUED = new Set(['session', 'until', 'poll', 'expect']);

/** Every runnable block of the README, in document order. */
export function runnableBlocks(readme: string): RunnableBlock[] {
  const lines = readme.split('\n');
  const blocks: RunnableBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.startsWith('## ')) section = line.slice(3).trim();
    const fence = /^```(\w*)\s*$/.exec(line);
    const marker = MARKER.exec(line);
    if (marker !== null && !/^```(sh|bash)\s*$/.test(lines[i + 1] ?? '')) throw new Error(`README.md:${i + 1}: a runnable marker must be followed by a \`\`\`sh or \`\`\`bash fence`);
    if (fence === null) continue;
    const end = lines.findIndex((candidate, j) => j > i && candidate.startsWith('```'));
    if (end === -1) throw new Error(`README.md:${i + 1}: the fence is never closed`);
    const body = lines.slice(i + 1, end);
    const language = fence[1]!;
    const found = MARKER.exec(lines[i - 1] ?? '');
    if ((language === 'sh' || language === 'bash') && found !== null) {
      const { session, ...options } = parseOptions(found[1] ?? '', i);
      blocks.push({ session: session ?? section, section, line: i + 1, options, commands: splitCommands(body, i + 2) });
    }
    i = end;
  }
  return blocks;
}

/** The runnable blocks grouped by walkthrough (session), each group in document order. */
export function walkthroughs(readme: string): Map<string, RunnableBlock[]> {
  const sessions = new Map<string, RunnableBlock[]>();
  for (const block of runnableBlocks(readme)) sessions.set(block.session, [...(sessions.get(block.session) ?? []), block]);
  return sessions;
}

function parseOptions(text: string, index: number): BlockOptions & { readonly session?: string } {
  const found: { background: boolean; restart: boolean; expect: string[]; session?: string; until?: string; poll?: string } = { background: false, restart: false, expect: [] };
  let at = 0;
  for (;;) {
    while (/\s/.test(text[at] ?? '')) at += 1;
    if (at >= text.length) return found;
    OPTION.lastIndex = at;
    const match = OPTION.exec(text);
    const name = match?.[1] ?? '';
    const value = match?.[2] ?? match?.[3] ?? match?.[4];
    if (match === null || !(FLAGS.has(name) ? value === undefined : VALUED.has(name) && value !== undefined)) {
      throw new Error(`README.md:${index}: runnable option ${JSON.stringify(text.slice(at).split(/\s/)[0])} is not one of: background, restart, session="…", until="…", poll="…", expect="…"`);
    }
    if (name === 'background' || name === 'restart') found[name] = true;
    else if (name === 'expect') found.expect.push(value!);
    else found[name as 'session' | 'until' | 'poll'] = value!;
    at = OPTION.lastIndex;
  }
}

/** The commands of a block's lines (`firstLine`: the README line of the first). */
export function splitCommands(lines: readonly string[], firstLine: number): Command[] {
  const commands: Array<{ text: string; shown: string[]; terminal?: string; line: number }> = [];
  let terminal: string | undefined;
  let open: { text: string; shown: string[]; terminal?: string; line: number } | undefined;
  lines.forEach((raw, index) => {
    if (open !== undefined && continues(open.text)) {
      open.text += `\n${raw}`;
      return;
    }
    if (raw.startsWith('$ ')) throw new Error(`README.md:${firstLine + index}: a \`$ \` prompt: show the command as it is pasted, its output as \`# \` comments`);
    const label = /^#\s*terminal\s+([\w-]+)/i.exec(raw);
    if (label !== null) {
      terminal = label[1]!;
      open = undefined;
      return;
    }
    if (raw.trim() !== '' && !raw.trimStart().startsWith('#')) {
      open = { text: raw, shown: [], line: firstLine + index, ...(terminal === undefined ? {} : { terminal }) };
      commands.push(open);
    } else if (open !== undefined && raw.trim() !== '') {
      open.shown.push(raw.trimStart().replace(/^#\s?/, ''));
    }
  });
  for (const command of commands) {
    const comment = trailingComment(command.text);
    if (comment !== undefined) command.shown.unshift(comment);
  }
  return commands;
}

/**
 * Whether a command goes on to the next line: a quote or `$(`/`(` still open, a trailing backslash,
 * or a here-document whose closing word has not come yet.
 */
export function continues(text: string): boolean {
  return scan(text).continues;
}

/**
 * The body of the first here-document after the text `after` that writes `file`
 * (`cat > FILE <<'WORD'` … `WORD`): what a reader who pastes the block has in that file.
 */
export function hereDocument(markdown: string, after: string, file: string): string {
  const from = markdown.indexOf(after);
  if (from === -1) throw new Error(`no ${JSON.stringify(after)} in the document`);
  const rest = markdown.slice(from);
  const opening = new RegExp(`> *${escapeRegExp(file)} *<<-?\\s*(['"]?)(\\w+)\\1[^\\n]*\\n`).exec(rest);
  if (opening === null) throw new Error(`no here-document writes ${file} after ${JSON.stringify(after)}`);
  const body = rest.slice(opening.index + opening[0].length);
  const closing = body.split('\n').indexOf(opening[2]!);
  if (closing === -1) throw new Error(`the here-document writing ${file} is never closed`);
  return `${body.split('\n').slice(0, closing).join('\n')}\n`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The comment at the end of a command's last line, as shown output (`curl … # {"stopped":true}`). */
function trailingComment(text: string): string | undefined {
  const { comment } = scan(text);
  return comment !== undefined && !text.slice(comment).includes('\n') ? text.slice(comment + 1).trim() : undefined;
}

const HERE_DOCUMENT = /<<(-?)\s*(['"]?)([A-Za-z_]\w*)\2/y;

/**
 * Reads a command as bash would, far enough to know whether it is complete and where its last comment
 * starts: quotes, backslashes, parentheses, comments and here-documents (whose lines are skipped).
 */
function scan(text: string): { readonly continues: boolean; readonly comment?: number } {
  let quote: string | undefined;
  let depth = 0;
  let comment: number | undefined;
  /** Here-documents opened on the current line, read from the next line on: their closing words. */
  const pending: Array<{ readonly word: string; readonly tabs: boolean }> = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '\n' && quote === undefined && pending.length > 0) {
      // The lines after the operator are the documents' bodies, each up to its closing word.
      let at = i + 1;
      while (pending.length > 0) {
        if (at > text.length) return { continues: true };
        const eol = text.indexOf('\n', at);
        const line = text.slice(at, eol === -1 ? text.length : eol);
        if ((pending[0]!.tabs ? line.replace(/^\t+/, '') : line) === pending[0]!.word) pending.shift();
        at = eol === -1 ? text.length + 1 : eol + 1;
      }
      comment = undefined;
      i = at - 2; // the loop's step lands on the line after the last closing word (on its newline, if any)
      if (i + 1 >= text.length) break;
      continue;
    }
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (c === '\\') {
      if (i === text.length - 1) return { continues: true };
      i += 1;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      comment = i;
      const eol = text.indexOf('\n', i);
      if (eol === -1) break;
      i = eol - 1; // the newline itself is read next: a here-document may start after it
    } else if (c === '<' && text.startsWith('<<', i) && !text.startsWith('<<<', i)) {
      HERE_DOCUMENT.lastIndex = i;
      const found = HERE_DOCUMENT.exec(text);
      if (found !== null) {
        pending.push({ word: found[3]!, tabs: found[1] === '-' });
        i = HERE_DOCUMENT.lastIndex - 1;
      } else {
        i += 1;
      }
    } else if (c === '(') {
      depth += 1;
    } else if (c === ')') {
      depth -= 1;
    }
  }
  return { continues: quote !== undefined || depth > 0 || pending.length > 0, ...(comment === undefined ? {} : { comment }) };
}
