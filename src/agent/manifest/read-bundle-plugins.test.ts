import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeTree, type TreeNode } from '../../../test/fixtures/write-tree.js';
import { readBundlePlugins } from './read-bundle-plugins.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function pluginsOf(tree: Record<string, TreeNode>): Promise<{ plugins: Awaited<ReturnType<typeof readBundlePlugins>>; warnings: unknown[] }> {
  const root = await writeTree(tree);
  roots.push(root);
  const log = { warn: vi.fn() };
  const plugins = await readBundlePlugins(root, log);
  return { plugins, warnings: log.warn.mock.calls.map((call): unknown => call[0]) };
}

describe('readBundlePlugins', () => {
  it('reads plugin manifests from the root, plugins/<p> and plugins/<p>/.claude-plugin', async () => {
    const { plugins, warnings } = await pluginsOf({
      'plugin.json': '{"name":"root"}',
      'plugins/beta/.claude-plugin/plugin.json': '{"name":"beta","version":"2"}',
      'plugins/alpha/plugin.json': '{"name":"alpha","tools":["x"]}',
      'plugins/alpha/.claude-plugin/plugin.json': '{"name":"alpha-claude"}',
    });
    expect(plugins).toEqual([
      { path: 'plugin.json', manifest: { name: 'root' } },
      { path: 'plugins/alpha/plugin.json', manifest: { name: 'alpha', tools: ['x'] } },
      { path: 'plugins/alpha/.claude-plugin/plugin.json', manifest: { name: 'alpha-claude' } },
      { path: 'plugins/beta/.claude-plugin/plugin.json', manifest: { name: 'beta', version: '2' } },
    ]);
    expect(warnings).toEqual([]);
  });

  it('skips invalid JSON and non-objects with a warning', async () => {
    const { plugins, warnings } = await pluginsOf({
      'plugin.json': '{ not json',
      'plugins/list/plugin.json': '[1, 2]',
      'plugins/ok/plugin.json': '{"name":"ok"}',
    });
    expect(plugins.map((plugin) => plugin.path)).toEqual(['plugins/ok/plugin.json']);
    expect(warnings).toEqual([
      { path: 'plugin.json', reason: 'invalid-json' },
      { path: 'plugins/list/plugin.json', reason: 'invalid-json' },
    ]);
  });

  it('drops prototype keys and refuses nesting past 64 levels', async () => {
    const deep = `${'{"a":'.repeat(70)}1${'}'.repeat(70)}`;
    const { plugins, warnings } = await pluginsOf({
      'plugins/proto/plugin.json': '{"name":"p","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
      'plugins/deep/plugin.json': deep,
    });
    expect(plugins).toEqual([{ path: 'plugins/proto/plugin.json', manifest: { name: 'p' } }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(warnings).toEqual([{ path: 'plugins/deep/plugin.json', reason: 'invalid-json' }]);
  });

  it('follows no symlinks and bounds the size', async () => {
    const { plugins, warnings } = await pluginsOf({
      'elsewhere/plugin.json': '{"name":"elsewhere"}',
      'elsewhere/.claude-plugin/plugin.json': '{"name":"elsewhere"}',
      'plugin.json': { symlink: 'elsewhere/plugin.json' },
      'plugins/linked': { symlink: '../elsewhere' },
      'plugins/claude/.claude-plugin': { symlink: '../../elsewhere/.claude-plugin' },
      'plugins/big/plugin.json': `{"pad":"${'x'.repeat(300 * 1024)}"}`,
    });
    expect(plugins).toEqual([]);
    expect(warnings).toEqual([
      { path: 'plugin.json', reason: 'not-regular' },
      { path: 'plugins/big/plugin.json', reason: 'too-large' },
    ]);
  });
});
