// Renders the README's generated tables (problem catalog, configuration reference) from the code
// that defines them, so the documentation cannot drift: a test compares, UPDATE_README=1 rewrites.
import { configReference } from '../../src/platform/config/index.js';
import { problemCatalog, problemCodes, problemType } from '../../src/platform/problems/index.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

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
  if (from === -1 || to === -1 || to < from) throw new Error(`README has no ${name} section markers`);
  return `${markdown.slice(0, from + start.length)}\n${body}\n${markdown.slice(to)}`;
}
