// Comments cite documents that exist in the repository (issue 21): every SPEC.md section quoted by name, `DESIGN §N` /
// `DESIGN.md §N`, `decision NNNN` / `ADR NNNN` / `decisions/NNNN`, `docs/…` path and README section a
// comment names is checked against docs/contract, docs/decisions, docs/ and README.md. Only comments
// are read (a string in code, like the name of a zip entry under docs, is data, not a citation).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

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
