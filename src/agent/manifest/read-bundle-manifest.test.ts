import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeTree, type TreeNode } from '../../../test/fixtures/write-tree.js';
import { createLogger } from '../../platform/log/index.js';
import { ManifestRejected, readBundleManifest, type BundleManifest, type ManifestLog } from './index.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function read(tree: Record<string, TreeNode>, uploadName?: string, log?: ManifestLog): Promise<BundleManifest> {
  const root = await writeTree(tree);
  roots.push(root);
  return readBundleManifest(root, uploadName, log);
}

const agent = (frontMatter: string, body = 'Body.'): Record<string, TreeNode> => ({ 'AGENT.md': `---\n${frontMatter}\n---\n${body}\n` });

async function reasonFor(tree: Record<string, TreeNode>, uploadName?: string): Promise<string> {
  const error: unknown = await read(tree, uploadName).then(() => null, (failure: unknown) => failure);
  expect(error).toBeInstanceOf(ManifestRejected);
  return (error as ManifestRejected).reason;
}

describe('readBundleManifest', () => {
  it('reads identity, prompt and requests from AGENT.md', async () => {
    const manifest = await read(agent('id: helper\nname: Helper\ndescription: Helps.\nversion: 1.0\nskills: [a]\nallowed-tools: [clock]', '\nYou help.\n\n'));
    expect(manifest).toEqual({
      id: 'helper',
      name: 'Helper',
      description: 'Helps.',
      version: '1.0',
      systemPrompt: 'You help.',
      skillIds: ['a'],
      allowedTools: ['clock'],
      requireApproval: null,
      skills: [],
      plugins: [],
    });
  });

  it('reads require-approval as lower-cased tool names, or all (DESIGN.md §13)', async () => {
    expect((await read(agent('id: a\nrequire-approval: [HTTP_Fetch, mcp__docs__search]', 'x'))).requireApproval).toEqual(['http_fetch', 'mcp__docs__search']);
    expect((await read(agent('id: a\nrequire-approval: all', 'x'))).requireApproval).toBe('all');
    expect((await read(agent('id: a', 'x'))).requireApproval).toBeNull();
    expect(await reasonFor({ 'AGENT.md': '---\nid: a\nrequire-approval: {x: 1}\n---\nx' })).toBe('invalid-agent-manifest');
  });

  it('warns when require-approval names a tool allowed-tools does not ask for (it would change nothing)', async () => {
    const warnings: Array<Record<string, unknown>> = [];
    const log = { warn: (details: Record<string, unknown>) => void warnings.push(details) };
    await read(agent('id: a\nallowed-tools: [clock]\nrequire-approval: [clock, http_fetch]', 'x'), undefined, log);
    expect(warnings).toEqual([{ requireApprovalNotInAllowedTools: 1 }]);
  });

  it.each([
    ['id over name and upload name', 'id: by-id\nname: by-name', 'by-upload.zip', 'by-id'],
    ['name when there is no id', 'name: by-name', 'by-upload.zip', 'by-name'],
    ['name when the id is blank', 'id: "  "\nname: by-name', undefined, 'by-name'],
    ['the upload name without its extension last', 'description: nameless', 'folder/by-upload.zip', 'by-upload'],
    ['a trimmed id', 'id: "  spaced  "', undefined, 'spaced'],
    ['a numeric id as written', 'id: 007', undefined, '007'],
  ])('takes the agent id from %s', async (_title, frontMatter, uploadName, id) => {
    expect((await read(agent(frontMatter), uploadName)).id).toBe(id);
  });

  it('refuses a manifest without front matter even when the upload has a name', async () => {
    expect(await reasonFor({ 'AGENT.md': '# Just a prompt\n' }, 'named.zip')).toBe('unresolvable-agent-id');
  });

  it.each([
    ['no id, no name and no upload name', agent('description: d'), undefined],
    ['empty front matter and an extension-only upload name', agent(''), '.zip'],
    ['an id with a control character', agent('id: "a\\u0001b"'), undefined],
    ['an id over 200 characters', agent(`id: ${'x'.repeat(201)}`), undefined],
    ['an id that is a mapping', agent('id: { a: 1 }'), 'fallback.zip'],
  ])('finds no agent id given %s', async (_title, tree, uploadName) => {
    expect(await reasonFor(tree, uploadName)).toBe('unresolvable-agent-id');
  });

  it.each<[string, string, string[] | null]>([
    ['absent', 'id: a', null],
    ['a YAML list', 'id: a\nallowed-tools:\n  - clock\n  - " calculator "\n  - clock', ['clock', 'calculator']],
    ['a comma-separated string', 'id: a\nallowed-tools: clock, calculator,json', ['clock', 'calculator', 'json']],
    ['a space-separated string', 'id: a\nallowed-tools: clock calculator', ['clock', 'calculator']],
    ['a Claude Code string with parentheses', 'id: a\nallowed-tools: "Bash(git diff:*), Read"', ['Bash(git diff:*)', 'Read']],
    ['present and empty', 'id: a\nallowed-tools: ""', []],
    ['present with no value', 'id: a\nallowed-tools:', []],
    ['an empty list', 'id: a\nallowed-tools: []', []],
  ])('reads allowed-tools given %s', async (_title, frontMatter, allowedTools) => {
    expect((await read(agent(frontMatter))).allowedTools).toEqual(allowedTools);
  });

  it('reads the skills selection as a list or a string, and absent as all', async () => {
    expect((await read(agent('id: a\nskills: [x, y]'))).skillIds).toEqual(['x', 'y']);
    expect((await read(agent('id: a\nskills: x, y'))).skillIds).toEqual(['x', 'y']);
    expect((await read(agent('id: a\nskills: []'))).skillIds).toEqual([]);
    expect((await read(agent('id: a'))).skillIds).toBeNull();
  });

  it('reads front matter with a byte-order mark and CRLF line ends', async () => {
    const manifest = await read({ 'AGENT.md': '\uFEFF---\r\nid: crlf\r\n---\r\nLine one.\r\n' });
    expect(manifest).toMatchObject({ id: 'crlf', systemPrompt: 'Line one.' });
  });

  it('accepts aliases within the small budget', async () => {
    expect((await read(agent('id: a\ntools: &t [clock]\nallowed-tools: *t'))).allowedTools).toEqual(['clock']);
  });

  it('refuses an alias bomb quickly and safely', async () => {
    const bomb = ['id: bomb', 'a: &a [x,x,x,x,x,x,x,x,x]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', 'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]'];
    const started = performance.now();
    expect(await reasonFor(agent(bomb.join('\n')))).toBe('invalid-agent-manifest');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['an unterminated front matter', { 'AGENT.md': '---\nid: a\nBody without a closing line.\n' }],
    ['a list instead of a mapping', agent('- a\n- b')],
    ['a scalar instead of a mapping', agent('just text')],
    ['a YAML 1.1 tag', agent('id: a\nwhen: !!timestamp 2001-12-14')],
    ['a code-looking custom tag', agent('id: !!js/function "function () { return 1 }"')],
    ['a local tag', agent('id: !shell "rm -rf /"')],
    ['duplicate keys', agent('id: a\nid: b')],
    ['skills as a number', agent('id: a\nskills: 3')],
    ['allowed-tools holding a mapping', agent('id: a\nallowed-tools: [{ clock: now }]')],
    ['a description that is a list', agent('id: a\ndescription: [a]')],
    ['front matter over 64 KiB', agent(`id: a\nnote: "${'n'.repeat(70 * 1024)}"`)],
    ['text that is not UTF-8', { 'AGENT.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x69, 0x64, 0x3a, 0x20, 0xff, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]) }],
    ['a file over 1 MiB', agent('id: a', 'x'.repeat(1024 * 1024))],
  ])('refuses %s as an invalid agent manifest', async (_title, tree) => {
    expect(await reasonFor(tree)).toBe('invalid-agent-manifest');
  });

  it.each([
    ['a YAML error, by AGENT.md line and YAML error code', agent('id: a\nname: x\n  bad: indent'), 'the front matter is not valid YAML at AGENT.md line 3 (BLOCK_AS_IMPLICIT_KEY)'],
    ['duplicate keys, by line', agent('id: a\nid: b'), 'the front matter is not valid YAML at AGENT.md line 3 (DUPLICATE_KEY)'],
    ['a field of the wrong shape, by field name', agent('id: a\nallowed-tools: [{ clock: now }]'), "front matter field 'allowed-tools' must be a YAML list or a comma- or space-separated string"],
    ['an unterminated front matter', { 'AGENT.md': '---\nid: a\nBody.\n' }, 'the front matter opened by --- on line 1 has no closing --- line'],
    ['flow collections nested 20,000 deep, by depth', agent(`id: a\nskills: ${'['.repeat(20_000)}`), 'the front matter nests deeper than 32 levels'],
    ['block sequences nested on one line, by depth', agent(`id: a\nskills:\n${'- '.repeat(40)}x`), 'the front matter nests deeper than 32 levels'],
  ])('says where AGENT.md broke for %s, without quoting it', async (_title, tree, hint) => {
    const error: unknown = await read(tree).then(() => null, (failure: unknown) => failure);
    expect((error as ManifestRejected).hint).toBe(hint);
  });

  it('refuses a missing AGENT.md and one that is not a regular file', async () => {
    expect(await reasonFor({ 'README.md': 'x' })).toBe('missing-agent-manifest');
    expect(await reasonFor({ 'README.md': '---\nid: a\n---\n', 'AGENT.md': { symlink: 'README.md' } })).toBe('agent-manifest-not-regular');
    expect(await reasonFor({ 'AGENT.md': { directory: true } })).toBe('agent-manifest-not-regular');
  });

  it('warns when AGENT.md selects skills the bundle lacks', async () => {
    const log = { warn: vi.fn() };
    await read(agent('id: a\nskills: [ghost]'), undefined, log);
    expect(log.warn).toHaveBeenCalledWith({ unknownSkillIds: 1 }, expect.stringContaining('ignored'));
  });

  it('accepts a pino logger as its warning sink', async () => {
    const log: ManifestLog = createLogger({ level: 'silent' });
    await expect(read(agent('id: a'), undefined, log)).resolves.toMatchObject({ id: 'a' });
  });
});
