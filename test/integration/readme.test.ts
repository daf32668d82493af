// The README opens with the two commands a newcomer runs and every shell block in it can be pasted as
// it stands; the reference's generated tables (docs/reference/errors.md, configuration.md) match the
// code: every problem code and every configuration key is documented. Run with UPDATE_README=1 to
// rewrite the tables.
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GENERATED_TABLES, replaceSection } from '../helpers/readme-tables.js';

const ROOT = new URL('../../', import.meta.url);
const README = new URL('README.md', ROOT);

describe('README', () => {
  for (const { file, section, render } of GENERATED_TABLES) {
    it(`${file} documents every ${section === 'config' ? 'configuration key' : 'problem code'}`, async () => {
      const path = new URL(file, ROOT);
      const current = await readFile(path, 'utf8');
      const expected = replaceSection(current, section, render());
      if (process.env.UPDATE_README === '1' && expected !== current) await writeFile(path, expected);
      else expect(current).toBe(expected);
    });
  }

  it('opens with the two commands a newcomer runs, how long the suite takes and the quick subset', async () => {
    const readme = await readFile(README, 'utf8');
    const head = readme.split('\n').slice(0, 15).join('\n');
    expect(head).toContain('npm install && npm start');
    expect(head).toContain('npm install && npm test');
    expect(head).toContain('`npm run test:quick`');
    expect(readme.split('\n').slice(0, 25).join('\n')).toMatch(/\bjq\b/);
  });

  it('has shell blocks a reader pastes whole: no `$ ` prompts, no $EDITOR, no folder or key of the reader but a provider key', async () => {
    const readme = await readFile(README, 'utf8');
    const blocks = [...readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThan(30);
    const lines = blocks.flatMap((block) => block.split('\n'));
    expect(lines.filter((line) => line.startsWith('$ '))).toEqual([]);
    const variables = new Set(lines.filter((line) => !line.trimStart().startsWith('#')).flatMap((line) => [...line.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!)));
    expect([...variables].filter((name) => ['EDITOR', 'VISUAL', 'PROJECT_DIR'].includes(name))).toEqual([]);
  });
});
