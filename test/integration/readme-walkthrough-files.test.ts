// The README's walkthroughs use shipped files and keep what they write out of the checkout: every
// workflow under examples/workflows/ validates on the Development host, the README's inline order.json
// is that file, and no fenced shell block writes anywhere but `.portcullis/` (git-ignored), /tmp or
// /dev/null. The scan reads each command as a reader pastes it (comments and the lines of
// here-documents dropped, single-quoted arguments ignored) and checks every target of `-o`, `--junit`,
// `>`/`>>` (a here-document's file included), `mkdir`, every `ReportsRoot`/`DatasetRoots` value, and a
// `bundle pack` without `-o` (which writes into the working directory).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { REPO } from './example-bundles-harness.js';

const WORKFLOWS = join(REPO, 'examples/workflows');
const ALLOWED = [/^\.portcullis(\/|$)/, /^\$PWD\/\.portcullis\//, /^\/tmp\//, /^\/dev\/null$/];
const WRITES: ReadonlyArray<readonly [string, RegExp]> = [
  ['-o', /(?<!\bgrep\b[^|;&\n]*)(?:^|\s)(?:-o|--output)\s+(\S+)/g], // grep's -o prints only what matched
  ['--junit', /--junit[=\s]+(\S+)/g],
  ['redirection', /(?:^|[^\d&<>-])\d?>>?\s*(?!&)(\S+)/g],
  ['mkdir', /\bmkdir(?:\s+-p)?\s+(\S+)/g],
  ['ReportsRoot', /ReportsRoot=(\S+)/g],
  // A dataset root a walkthrough writes datasets into; the shipped examples/evals is only read.
  ['DatasetRoots', /DatasetRoots__\d+=(?!examples\/evals(?:\s|$))(\S+)/g],
  // Without -o, `bundle pack DIR` writes DIR's name .zip into the working directory: the checkout.
  ['bundle pack without -o into the working directory', /bundle pack\s+(?![^\n]*\s-o\s)(\S+)/g],
];

let readme: string;
let t: TestApp;
beforeAll(async () => {
  readme = await readFile(join(REPO, 'README.md'), 'utf8');
  t = await buildTestApp({ environment: 'Development' });
});
afterAll(async () => t.close());

/** Each ```sh / ```bash block as the commands a reader pastes. */
function shellCommands(): string[] {
  return [...readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) =>
    withoutHereDocuments(m[1]!)
      .replace(/'[^']*'/g, "''")
      .split('\n')
      .map((line) => line.replace(/^\s*\$ /, '').replace(/(^|\s)#.*$/, ''))
      .join('\n'),
  );
}

/** A block without the lines of its here-documents (a file's text, not commands); the `cat > FILE <<'WORD'` line stays. */
function withoutHereDocuments(block: string): string {
  return block.replace(/^(.*<<-?\s*(['"]?)(\w+)\2.*\n)[\s\S]*?^\3$\n?/gm, '$1');
}

/** Every path a block writes that is not one of the allowed places, as `kind target`. */
function strayWrites(block: string): string[] {
  const stray: string[] = [];
  for (const [kind, pattern] of WRITES) {
    for (const match of block.matchAll(pattern)) {
      const target = match[1]!.replace(/^"|"$/g, '').replace(/;$/, '');
      if (!ALLOWED.some((allowed) => allowed.test(target))) stray.push(`${kind} ${target}`);
    }
  }
  return stray;
}

describe('README walkthrough files', () => {
  it('every examples/workflows file validates on the Development host', async () => {
    const files = (await readdir(WORKFLOWS)).filter((name) => name.endsWith('.json'));
    expect(files).toContain('order.json');
    for (const file of files) {
      const definition: unknown = JSON.parse(await readFile(join(WORKFLOWS, file), 'utf8'));
      const res = await t.app.inject({ method: 'POST', url: '/api/workflows/validate', payload: definition as object });
      expect({ file, body: res.json() }).toEqual({ file, body: { valid: true, diagnostics: [] } });
    }
  });

  it("the README's order.json is examples/workflows/order.json, and its commands send that file", async () => {
    const inline = /`order\.json`[^`]*```json\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(JSON.parse(inline)).toEqual(JSON.parse(await readFile(join(WORKFLOWS, 'order.json'), 'utf8')));
    const sent = [...readme.matchAll(/-d @([^\s)-][^\s)]*)/g)].map((m) => m[1]!); // `-d @-` sends stdin
    expect(sent).toContain('examples/workflows/order.json');
    for (const file of sent) await expect(readFile(join(REPO, file)), file).resolves.toBeDefined();
  });

  it('no fenced shell block writes outside .portcullis/, /tmp or your own project', () => {
    const blocks = shellCommands();
    expect(blocks.length).toBeGreaterThan(30);
    expect(blocks.flatMap(strayWrites)).toEqual([]);
  });

  it('the scan sees the writes a walkthrough used to leave in the checkout', () => {
    const old = ['npx portcullis bundle pack x -o trip-timer.zip', 'npx portcullis bundle pack examples/bundles/trip-timer', 'curl -s u > eval-results.xml', 'npx portcullis eval run a --junit reports/evals.xml', 'mkdir -p my-evals', 'AppConfig__AI__Evaluation__ReportsRoot=reports npm start', "cat > support.yaml <<'YAML'"];
    expect(old.map((line) => strayWrites(line).length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(withoutHereDocuments("cat > .portcullis/a.mjs <<'JS'\nconst f = () => x > y;\nJS\necho done")).toBe("cat > .portcullis/a.mjs <<'JS'\necho done");
    expect(strayWrites('npx portcullis serve 2>&1 | jq . && curl -s -o /dev/null u > .portcullis/x.xml')).toEqual([]);
    expect(strayWrites("grep -o '' .portcullis/reports/replay.xml && curl -o x.zip u")).toEqual(['-o x.zip']);
  });
});
