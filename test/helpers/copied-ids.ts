// The ids a README reader copies from what a command printed into the next commands
// (`HANDLE=UmHG_…`, `…/runs/z2SN…/stream`): the README shows an id after some text (`"jobId":"`,
// `location: /api/workflows/`), so the id printed after that same text here is the one to type.
// An id is an opaque token of 16 or more letters, digits, `_` and `-`, with a letter and a digit.

const ID = /[A-Za-z0-9_-]{16,}/g;

export class CopiedIds {
  /** README id → the id printed here. */
  readonly #read = new Map<string, string>();
  /** README id → why it could not be read. */
  readonly #unread = new Map<string, string>();

  /**
   * Reads the ids in a command's shown output from what it printed. `typed` turns the README's text
   * before an id into what this run prints there (its ports, for one).
   */
  read(shown: readonly string[], printed: string, typed: (text: string) => string): void {
    for (const line of shown) {
      for (const match of line.matchAll(ID)) {
        const id = match[0];
        if (!/\d/.test(id) || !/[A-Za-z]/.test(id) || this.#read.has(id) || this.#unread.has(id)) continue;
        const before = textBefore(line, match.index);
        let found: RegExpExecArray | null = null;
        try {
          found = before === '' ? null : new RegExp(`${escape(typed(before))}([A-Za-z0-9_-]+)`).exec(printed);
        } catch {
          // the text before it holds an id that could not be read either
        }
        if (found !== null) this.#read.set(id, found[1]!);
        else this.#unread.set(id, `the README shows ${id} after ${JSON.stringify(before)}, and the command printed no ${JSON.stringify(`${before}…`)}`);
      }
    }
  }

  /**
   * The text with every id read so far replaced, and `rest` applied to everything else (so a port
   * number inside a printed id is never rewritten). Throws for an id that was shown but not printed.
   */
  replace(text: string, rest: (text: string) => string): string {
    const ids: string[] = [];
    const kept = text.replace(ID, (token) => {
      const read = this.#read.get(token);
      if (read !== undefined) return `\uE000${ids.push(read) - 1}\uE001`;
      const why = this.#unread.get(token);
      if (why !== undefined) throw new Error(`${why}, so \`${text}\` cannot be typed`);
      return token;
    });
    return rest(kept).replace(/\uE000(\d+)\uE001/g, (_, index: string) => ids[Number(index)]!);
  }
}

/** The text right before an id on a line: back to a space, `…`, `,`, `{` or `[`; else the word before it and the space. */
function textBefore(line: string, index: number): string {
  let start = index;
  while (start > 0 && !/[\s…,{[]/.test(line[start - 1]!)) start -= 1;
  if (start < index) return line.slice(start, index);
  while (start > 0 && /\s/.test(line[start - 1]!)) start -= 1;
  while (start > 0 && !/[\s…]/.test(line[start - 1]!)) start -= 1;
  return line.slice(start, index);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
