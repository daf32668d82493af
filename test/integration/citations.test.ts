// Comments cite documents that exist in the repository (issue 21): every SPEC.md section quoted by name, `DESIGN §N` /
// `DESIGN.md §N`, `decision NNNN` / `ADR NNNN` / `decisions/NNNN`, `docs/…` path and README section a
// comment names is checked against docs/contract, docs/decisions, docs/ and README.md. Only comments
// are read (a string in code, like the name of a zip entry under docs, is data, not a citation).
// The README and the docs beside it (docs/*.md, docs/reference/) are held to the same (issue 42): each
// relative link names a file and a heading that exist, and every SPEC.md / DESIGN.md / §N they cite is a
// link into docs/contract, to the section it names.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { headingAnchors, markdownLinks, withoutCode } from '../helpers/markdown-links.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE_DIRS = ['src', 'test', 'bench', 'scripts', 'console/src'];
const DESIGN = readFileSync(join(ROOT, 'docs/contract/DESIGN.md'), 'utf8');
const SPEC = readFileSync(join(ROOT, 'docs/contract/SPEC.md'), 'utf8');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DECISIONS = readdirSync(join(ROOT, 'docs/decisions'));

function sourceFiles(dir: string): string[] {
  const full = join(ROOT, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs|js)$/.test(entry.name) && !entry.parentPath.includes('generated') && !entry.parentPath.includes('node_modules'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** The text of a file's comments, as the TypeScript scanner finds them (never inside a string). */
function comments(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) found.push(scanner.getTokenText());
  }
  return found.join('\n');
}

interface Citation {
  readonly file: string;
  readonly cited: string;
}

function citationsIn(file: string): Citation[] {
  const text = comments(readFileSync(join(ROOT, file), 'utf8'));
  const cite = (cited: string): Citation => ({ file, cited });
  return [
    ...[...text.matchAll(/DESIGN(?:\.md)?\s+§\s?(\d+)/g)].map((m) => cite(`DESIGN §${m[1]}`)),
    ...[...text.matchAll(/\b(?:decisions?|ADR)[ /]+(\d{4})\b/g)].map((m) => cite(`decision ${m[1]}`)),
    ...[...text.matchAll(/\bdocs\/[\w./-]*\w/g)].map((m) => cite(m[0])),
    ...[...text.matchAll(/README,? "([^"]+)"/g)].map((m) => cite(`README "${m[1]}"`)),
    ...[...text.matchAll(/SPEC(?:\.md)? "([^"]+)"/g)].map((m) => cite(`SPEC "${m[1]}"`)),
  ];
}

function resolves(citation: string): boolean {
  const design = /^DESIGN §(\d+)$/.exec(citation);
  if (design) return new RegExp(`^## ${design[1]}\\. `, 'm').test(DESIGN);
  const decision = /^decision (\d{4})$/.exec(citation);
  if (decision) return DECISIONS.some((name) => name.startsWith(`${decision[1]}-`));
  const spec = /^SPEC "(.+)"$/.exec(citation);
  if (spec) return new RegExp(`^#+ ${escaped(spec[1]!)}(?: |$)`, 'm').test(SPEC);
  const readme = /^README "(.+)"$/.exec(citation);
  if (readme) return new RegExp(`^#+ (?:\\d+\\. )?${escaped(readme[1]!)}`, 'm').test(README);
  return existsSync(join(ROOT, citation));
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const files = SOURCE_DIRS.flatMap(sourceFiles);

describe('citations in comments', () => {
  it('reads the sources it checks', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files.some((file) => citationsIn(file).length > 0)).toBe(true);
  });

  it('name documents and sections that exist in the repository', () => {
    const broken = files.flatMap(citationsIn).filter(({ cited }) => !resolves(cited));
    expect(broken).toEqual([]);
  });

  it('find SPEC.md and DESIGN.md in the repository, where the code cites them', () => {
    expect(existsSync(join(ROOT, 'docs/contract/SPEC.md'))).toBe(true);
    expect(DESIGN).toMatch(/^## 17\. /m);
    expect(resolves('DESIGN §99')).toBe(false);
    expect(resolves('decision 0001')).toBe(true);
    expect(resolves('decision 0999')).toBe(false);
  });
});

/** The README and the documents beside it that a reader follows links through (decisions and the contract are records, kept as written). */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
  ...readdirSync(join(ROOT, 'docs/reference')).filter((name) => name.endsWith('.md')).map((name) => `docs/reference/${name}`),
];
const CONTRACT_LINK = /\[([^\]]*)\]\(([^)\s]*contract\/(?:DESIGN|SPEC)\.md(?:#[^)\s]*)?)\)/g;

/** Each relative link of a document that names no file, or no heading of the file, as `file:line target`. */
function brokenLinks(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const broken: string[] = [];
  for (const { target, line } of markdownLinks(text)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
    const linked = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), decodeURI(path)));
    if (linked.startsWith('..') || !existsSync(join(ROOT, linked))) broken.push(`${file}:${line} ${target} (no such file)`);
    else if (anchor !== undefined && linked.endsWith('.md') && !headingAnchors(readFileSync(join(ROOT, linked), 'utf8')).has(anchor)) broken.push(`${file}:${line} ${target} (no such heading)`);
  }
  return broken;
}

/** Each SPEC/DESIGN/§N a document cites outside a link into docs/contract, and each DESIGN §N link to another section. */
function unlinkedContract(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const found: string[] = [];
  withoutCode(text).split('\n').forEach((line, index) => {
    for (const [, label, target] of line.matchAll(CONTRACT_LINK)) {
      const section = /§\s?(\d+)/.exec(label!);
      if (section !== null && !target!.includes(`DESIGN.md#${section[1]}-`)) found.push(`${file}:${index + 1} [${label}](${target}) links another section`);
    }
    for (const match of line.replace(CONTRACT_LINK, '').matchAll(/\b(?:DESIGN|SPEC)\b[^\s,;)]*(?:\s§\s?\d+)?|§\s?\d+/g)) found.push(`${file}:${index + 1} ${match[0]}`);
  });
  return found;
}

describe('links and contract citations in the README and the docs', () => {
  it('reads the documents it checks', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/architecture.md', 'docs/reference/configuration.md']));
  });

  it('link to files and headings that exist', () => {
    expect(DOCUMENTS.flatMap((file) => brokenLinks(file))).toEqual([]);
  });

  it('link SPEC.md, DESIGN.md and each §N they cite to docs/contract, at the section named', () => {
    expect(DOCUMENTS.flatMap((file) => unlinkedContract(file))).toEqual([]);
  });

  it('finds a missing file or heading, an unlinked citation and a link to another section', () => {
    const sample = ['See DESIGN §16 and SPEC.md, then [DESIGN §18](docs/contract/DESIGN.md#17-fairness-bounds-and-faults-beyond-specmd-settles-what-3-6-and-11-left-open), [SPEC.md](docs/contract/SPEC.md) and `DESIGN §3`.', '[x](nowhere.md) [y](#no-heading) [z](docs/README.md) ![w](docs/console/tools.png)'].join('\n');
    expect(unlinkedContract('README.md', sample)).toEqual(['README.md:1 [DESIGN §18](docs/contract/DESIGN.md#17-fairness-bounds-and-faults-beyond-specmd-settles-what-3-6-and-11-left-open) links another section', 'README.md:1 DESIGN §16', 'README.md:1 SPEC.md']);
    expect(brokenLinks('README.md', sample)).toEqual(['README.md:2 nowhere.md (no such file)', 'README.md:2 #no-heading (no such heading)']);
  });
});
