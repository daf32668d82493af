// The README's generated tables match the code: every problem code and every configuration key is
// documented. Run with UPDATE_README=1 to rewrite them.
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { configTable, problemsTable, replaceSection } from '../helpers/readme-tables.js';

const README = new URL('../../README.md', import.meta.url);

describe('README', () => {
  it('documents every problem code and every configuration key', async () => {
    const current = await readFile(README, 'utf8');
    const expected = replaceSection(replaceSection(current, 'problems', problemsTable()), 'config', configTable());
    if (process.env.UPDATE_README === '1' && expected !== current) await writeFile(README, expected);
    else expect(current).toBe(expected);
  });

  it('opens with the two commands a newcomer runs', async () => {
    const head = (await readFile(README, 'utf8')).split('\n').slice(0, 15).join('\n');
    expect(head).toContain('npm install && npm start');
    expect(head).toContain('npm install && npm test');
  });
});
