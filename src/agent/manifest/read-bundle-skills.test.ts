import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeTree, type TreeNode } from '../../../test/fixtures/write-tree.js';
import { readBundleSkills } from './read-bundle-skills.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function skillsOf(tree: Record<string, TreeNode>): Promise<{ skills: Awaited<ReturnType<typeof readBundleSkills>>; warnings: unknown[] }> {
  const root = await writeTree(tree);
  roots.push(root);
  const log = { warn: vi.fn() };
  const skills = await readBundleSkills(root, log);
  return { skills, warnings: log.warn.mock.calls.map((call): unknown => call[0]) };
}

const skill = (frontMatter: string, body = 'Do it.'): string => `---\n${frontMatter}\n---\n${body}\n`;

describe('readBundleSkills', () => {
  it('reads nested skills in sorted path order with their names, descriptions and bodies', async () => {
    const { skills, warnings } = await skillsOf({
      'skills/b-second/SKILL.md': skill('name: second\ndescription: The second.'),
      'skills/a-first/SKILL.md': skill('id: first\nname: First skill\ndescription: The first.', '\nStep one.\n'),
      'skills/c-folder/SKILL.md': skill('description: Named by its folder.'),
    });
    expect(skills).toEqual([
      { id: 'first', name: 'First skill', description: 'The first.', body: 'Step one.' },
      { id: 'second', name: 'second', description: 'The second.', body: 'Do it.' },
      { id: 'c-folder', name: 'c-folder', description: 'Named by its folder.', body: 'Do it.' },
    ]);
    expect(warnings).toEqual([]);
  });

  it('skips a malformed skill with a warning and keeps the rest', async () => {
    const { skills, warnings } = await skillsOf({
      'skills/no-front-matter/SKILL.md': '# Not a skill\n',
      'skills/bad-yaml/SKILL.md': skill('name: [unclosed'),
      'skills/bad-id/SKILL.md': skill(`id: ${'x'.repeat(201)}`),
      'skills/good/SKILL.md': skill('name: good'),
    });
    expect(skills.map((entry) => entry.id)).toEqual(['good']);
    expect(warnings).toEqual([
      { path: 'skills/bad-id/SKILL.md', reason: 'invalid-id' },
      { path: 'skills/bad-yaml/SKILL.md', reason: 'invalid-yaml' },
      { path: 'skills/no-front-matter/SKILL.md', reason: 'no-front-matter' },
    ]);
  });

  it('keeps the first skill of a duplicated id in sorted path order', async () => {
    const { skills, warnings } = await skillsOf({
      'skills/z/SKILL.md': skill('name: shared\ndescription: Later.'),
      'skills/a/SKILL.md': skill('name: shared\ndescription: Earlier.'),
    });
    expect(skills).toEqual([{ id: 'shared', name: 'shared', description: 'Earlier.', body: 'Do it.' }]);
    expect(warnings).toEqual([{ path: 'skills/z/SKILL.md', reason: 'duplicate-id', skillId: 'shared' }]);
  });

  it('follows no symlinks: a linked folder or SKILL.md is skipped with a warning', async () => {
    const { skills, warnings } = await skillsOf({
      'shared/SKILL.md': skill('name: linked'),
      'skills/folder-link': { symlink: '../shared' },
      'skills/file-link/SKILL.md': { symlink: '../../shared/SKILL.md' },
    });
    expect(skills).toEqual([]);
    expect(warnings).toEqual([
      { path: 'skills/file-link/SKILL.md', reason: 'not-regular' },
      { path: 'skills/folder-link', reason: 'symlink' },
    ]);
  });

  it('ignores folders without a SKILL.md, stray files and a bundle without skills', async () => {
    expect((await skillsOf({ 'skills/empty/README.md': 'x', 'skills/notes.md': 'x' })).skills).toEqual([]);
    expect((await skillsOf({ 'AGENT.md': 'x' })).skills).toEqual([]);
  });

  it('skips an oversized SKILL.md with a warning', async () => {
    const { skills, warnings } = await skillsOf({ 'skills/huge/SKILL.md': skill('name: huge', 'x'.repeat(300 * 1024)) });
    expect(skills).toEqual([]);
    expect(warnings).toEqual([{ path: 'skills/huge/SKILL.md', reason: 'too-large' }]);
  });
});
