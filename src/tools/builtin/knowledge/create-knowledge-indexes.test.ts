import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKnowledgeIndexes, type KnowledgeLog } from './index.js';

const silentLog = () => ({ warn: vi.fn(), info: vi.fn() });

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

let temp: string;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'portcullis-indexes-'));
});
afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

describe('knowledge indexes', () => {
  it('shares search as a plain function that returns the text too, honouring and clamping topK', async () => {
    const root = join(temp, 'plain');
    await write(root, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`d${i}.md`, `# Doc ${i}\ndeployment note ${i}\n`])));
    const { search, get, names } = await createKnowledgeIndexes({ indexes: { notes: { root } }, log: silentLog() });
    expect(names).toEqual(['notes']);
    expect(search('notes', 'deployment')).toHaveLength(5);
    expect(search('notes', 'deployment', 500)).toHaveLength(50);
    expect(search('notes', 'deployment', 0)).toHaveLength(1);
    const [hit] = search('notes', 'note 42', 1)!;
    expect(hit).toMatchObject({ id: 'd42.md', title: 'Doc 42', text: '# Doc 42\ndeployment note 42\n' });
    expect(get('notes', 'd42.md')?.title).toBe('Doc 42');
    expect(search('unknown', 'deployment')).toBeUndefined();
  });

  it('stops at the document limit with one warning', async () => {
    const root = join(temp, 'many');
    await write(root, Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`doc${i}.md`, `# Doc ${i}\nshared word\n`])));
    const warnings = silentLog();
    const small = await createKnowledgeIndexes({ indexes: { many: { root } }, log: warnings, limits: { maxDocuments: 3 } });
    expect(small.search('many', 'shared', 50)).toHaveLength(3);
    expect(warnings.warn).toHaveBeenCalledTimes(1);
  });

  it('stops at the total size limit with one warning', async () => {
    const root = join(temp, 'sized');
    await write(root, { 'a.md': 'alpha '.repeat(10), 'b.md': 'alpha '.repeat(10), 'c.md': 'alpha '.repeat(10) });
    const warnings = silentLog();
    const sized = await createKnowledgeIndexes({ indexes: { s: { root } }, log: warnings, limits: { maxTotalBytes: 130 } });
    expect(sized.search('s', 'alpha', 50)!.map((hit) => hit.id).sort()).toEqual(['a.md', 'b.md']);
    expect(warnings.warn).toHaveBeenCalledTimes(1);
  });

  it('keeps a known but empty index when its root is missing, with a warning', async () => {
    const warnings = silentLog();
    const empty = await createKnowledgeIndexes({ indexes: { gone: { root: join(temp, 'no-such-folder') } }, log: warnings });
    expect(empty.has('gone')).toBe(true);
    expect(empty.search('gone', 'anything')).toEqual([]);
    expect(warnings.warn).toHaveBeenCalledWith(expect.objectContaining({ index: 'gone' }), expect.stringContaining('not readable'));
  });

  it('re-indexes once after a burst of changes, when asked to watch', async () => {
    const root = join(temp, 'watched');
    await write(root, { 'a.md': '# A\napples\n' });
    let notify: () => void = () => undefined;
    const stop = vi.fn();
    const log = silentLog();
    const watched = await createKnowledgeIndexes({
      indexes: { w: { root } },
      log,
      watch: {
        debounceMs: 100,
        watchRoot: (_root, onChange) => {
          notify = onChange;
          return stop;
        },
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await write(root, { 'b.md': '# B\nbananas\n' });
      notify();
      notify();
      await vi.advanceTimersByTimeAsync(99);
      notify();
      expect(watched.search('w', 'bananas')).toEqual([]);
      await vi.advanceTimersByTimeAsync(100);
      await watched.idle();
      expect(watched.search('w', 'bananas')!.map((hit) => hit.id)).toEqual(['b.md']);
      expect(log.info).toHaveBeenCalledTimes(2); // the start-up load and one reload
    } finally {
      vi.useRealTimers();
      await watched.close();
    }
    expect(stop).toHaveBeenCalledOnce();
  });

  it('accepts the service’s pino logger', async () => {
    const logger: KnowledgeLog = pino({ level: 'silent' });
    expect((await createKnowledgeIndexes({ indexes: {}, log: logger })).names).toEqual([]);
  });
});
