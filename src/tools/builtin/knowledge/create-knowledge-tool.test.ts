import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ToolCallContext, ToolResult } from '../../tool.js';
import { createKnowledgeIndexes, createKnowledgeTool, type KnowledgeIndexes } from './index.js';

const context: ToolCallContext = { ownerId: 'oid:alice', signal: new AbortController().signal };
interface Hit {
  readonly id: string;
  readonly title: string;
  readonly score: number;
  readonly snippet: string;
}
const output = <T = { id: string; title: string; text: string }>(result: ToolResult): T => {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return JSON.parse(result.output) as T;
};
const hitsOf = (result: ToolResult): Hit[] => output<Hit[]>(result);
const silentLog = () => ({ warn: vi.fn(), info: vi.fn() });

async function write(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

let temp: string;
let docs: string;
let indexes: KnowledgeIndexes;
const log = silentLog();

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'portcullis-knowledge-'));
  docs = join(temp, 'docs');
  await write(docs, {
    'kubernetes.md': '# Deploying to Kubernetes\n\nApply the manifest with kubectl; the deployment rolls pods one by one.\n',
    'guides/sourdough.md': '---\ntitle: ignored\n---\n# Sourdough bread\n\nFeed the starter, mix flour and water, bake hot.\n',
    'guides/deep/nested/release.md': 'No heading here, just release notes about the deployment window.\n',
    'notes.txt': '# not a markdown heading\nPlain text notes about gardening and tomatoes.\n',
    'README.MD': '# Upper-case extension\nzebra crossing\n',
    'data.json': '{"word": "pineapple"}',
    'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    '.hidden/secret.md': '# Hidden\npineapple\n',
    'huge.md': `# Huge\n${'elephant '.repeat(240_000)}`,
  });
  await write(temp, { 'outside/escape.md': '# Escaped\nexfiltrate the crown jewels\n' });
  await symlink(join(temp, 'outside/escape.md'), join(docs, 'escape.md'));
  await symlink(join(temp, 'outside'), join(docs, 'linked-folder'));
  await symlink(join(docs, 'kubernetes.md'), join(docs, 'alias.md'));
  indexes = await createKnowledgeIndexes({ indexes: { handbook: { root: docs } }, log });
});

afterAll(async () => {
  await indexes.close();
  await rm(temp, { recursive: true, force: true });
});

describe('knowledge tool', () => {
  it('declares the descriptor flags of DESIGN §4 and strict schemas that ajv compiles', () => {
    const tool = createKnowledgeTool(indexes);
    expect(tool.descriptor).toMatchObject({
      name: 'knowledge',
      riskTier: 'Low',
      isReadOnly: true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
      reachesNetwork: false,
    });
    const ajv = new Ajv2020({ strict: true });
    const [search, get] = tool.descriptor.operations.map((o) => ajv.compile(o.parameters));
    expect(search!({ index: 'handbook', query: 'x', topK: 50 })).toBe(true);
    expect(search!({ index: 'handbook', query: 'x', topK: 51 })).toBe(false);
    expect(search!({ index: 'handbook', query: 'x', extra: 1 })).toBe(false);
    expect(get!({ index: 'handbook' })).toBe(false);
  });

  it('ranks the obviously relevant document first', async () => {
    const tool = createKnowledgeTool(indexes);
    const hits = hitsOf(await tool.invoke('search', { index: 'handbook', query: 'kubernetes deployment pods' }, context));
    expect(hits[0]).toMatchObject({ id: 'kubernetes.md', title: 'Deploying to Kubernetes' });
    expect(Object.keys(hits[0]!).sort()).toEqual(['id', 'score', 'snippet', 'title']);
    expect(hits[0]!.snippet).toContain('Kubernetes');
    expect(hits[0]!.score).toBeGreaterThan(hits[1]?.score ?? 0);
    const bread = hitsOf(await tool.invoke('search', { index: 'handbook', query: 'bread starter' }, context));
    expect(bread[0]!.id).toBe('guides/sourdough.md');
  });

  it('gets a document by its slash-separated relative path, titled by heading or file name', async () => {
    const tool = createKnowledgeTool(indexes);
    expect(output(await tool.invoke('get', { index: 'handbook', id: 'guides/sourdough.md' }, context))).toEqual({
      id: 'guides/sourdough.md',
      title: 'Sourdough bread',
      text: expect.stringContaining('Feed the starter'),
    });
    expect(output(await tool.invoke('get', { index: 'handbook', id: 'guides/deep/nested/release.md' }, context)).title).toBe('release.md');
    expect(output(await tool.invoke('get', { index: 'handbook', id: 'notes.txt' }, context)).title).toBe('notes.txt');
    expect(output(await tool.invoke('get', { index: 'handbook', id: 'README.MD' }, context)).title).toBe('Upper-case extension');
  });

  it('names an unknown index and an unknown document in its failure', async () => {
    const tool = createKnowledgeTool(indexes);
    expect(await tool.invoke('search', { index: 'nope', query: 'x' }, context)).toEqual({
      ok: false,
      error: 'Unknown index "nope"; known indexes: handbook.',
    });
    expect(await tool.invoke('get', { index: 'nope', id: 'kubernetes.md' }, context)).toMatchObject({ ok: false, error: expect.stringContaining('"nope"') });
    expect(await tool.invoke('get', { index: 'handbook', id: 'missing.md' }, context)).toEqual({
      ok: false,
      error: 'Unknown document "missing.md" in index "handbook".',
    });
    expect(await tool.invoke('get', { index: '__proto__', id: 'x' }, context)).toMatchObject({ ok: false });
  });

  it('ignores files that are not .md or .txt, and dot-folders', async () => {
    const tool = createKnowledgeTool(indexes);
    expect(hitsOf(await tool.invoke('search', { index: 'handbook', query: 'pineapple' }, context))).toEqual([]);
    expect(await tool.invoke('get', { index: 'handbook', id: 'data.json' }, context)).toMatchObject({ ok: false });
    expect(await tool.invoke('get', { index: 'handbook', id: '.hidden/secret.md' }, context)).toMatchObject({ ok: false });
  });

  it('never follows a symlink, so nothing outside the root is indexed', async () => {
    const tool = createKnowledgeTool(indexes);
    expect(hitsOf(await tool.invoke('search', { index: 'handbook', query: 'exfiltrate crown jewels' }, context))).toEqual([]);
    for (const id of ['escape.md', 'linked-folder/escape.md', 'alias.md']) {
      expect(await tool.invoke('get', { index: 'handbook', id }, context)).toMatchObject({ ok: false });
    }
  });

  it('skips a file over 2 MiB with a warning', async () => {
    const tool = createKnowledgeTool(indexes);
    expect(hitsOf(await tool.invoke('search', { index: 'handbook', query: 'elephant' }, context))).toEqual([]);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ index: 'handbook', id: 'huge.md' }), expect.stringContaining('too large'));
  });
});
