// Renders the generated tables of the reference (docs/reference/): the problem catalog in errors.md and
// the configuration keys in configuration.md, from the code that defines them, so the documentation
// cannot drift: test/integration/readme.test.ts compares, UPDATE_README=1 rewrites. A `DESIGN §N` the
// code's text cites becomes a link to that section of docs/contract/DESIGN.md, as everywhere in the docs.
import { readFileSync } from 'node:fs';
import { configReference } from '../../src/platform/config/index.js';
import { problemCatalog, problemCodes, problemType } from '../../src/platform/problems/index.js';
import { slug } from './markdown-links.js';

/** The generated tables: the file (from the repository root) each lives in, and its section name there. */
export const GENERATED_TABLES = [
  { file: 'docs/reference/errors.md', section: 'problems', render: () => problemsTable() },
  { file: 'docs/reference/configuration.md', section: 'config', render: () => configTable() },
] as const;

const DESIGN = readFileSync(new URL('../../docs/contract/DESIGN.md', import.meta.url), 'utf8');

const cell = (text: string): string => linkDesign(text.replace(/\|/g, '\\|').replace(/\n/g, ' '));

/** `DESIGN §N` as a link to section N of the contract, from a file in docs/reference/. */
export function linkDesign(text: string): string {
  return text.replace(/DESIGN §(\d+)/g, (citation, section: string) => {
    const heading = new RegExp(`^## (${section}\\. .*)$`, 'm').exec(DESIGN);
    if (heading === null) throw new Error(`DESIGN.md has no section ${section}`);
    return `[${citation}](../contract/DESIGN.md#${slug(heading[1]!)})`;
  });
}

export function problemsTable(): string {
  const rows = problemCodes.map((code) => {
    const entry = problemCatalog[code];
    return `| ${entry.status} | ${entry.title} | \`${problemType(code)}\` | ${cell(entry.meaning)} |`;
  });
  return ['| Status | Title | Type | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function configTable(): string {
  const rows = configReference.map((doc) => `| \`${doc.key}\` | ${cell(doc.type)} | ${doc.default === '' ? '' : `\`${cell(doc.default)}\``} | ${cell(doc.meaning)} |`);
  return ['| Key | Type | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function replaceSection(markdown: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end);
  if (from === -1 || to === -1 || to < from) throw new Error(`no ${name} section markers (${start} … ${end})`);
  return `${markdown.slice(0, from + start.length)}\n${body}\n${markdown.slice(to)}`;
}
