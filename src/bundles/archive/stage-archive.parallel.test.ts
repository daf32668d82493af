// Staging writes a few files at once (FILE_WRITES_AT_ONCE), never more: counted at the file system.
import type * as fsPromises from 'node:fs/promises';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import yazl from 'yazl';
import { specDefaultLimits } from '../../../test/fixtures/bundle-fixtures.js';
import { createStagingSandbox, type StagingSandbox } from '../../../test/fixtures/staging-sandbox.js';
import { stageArchive } from './index.js';
import { FILE_WRITES_AT_ONCE } from './write-staging-tree.js';

const writes = { open: 0, most: 0 };
const FALLBACK_MS = 500;

/**
 * Resolves once FILE_WRITES_AT_ONCE files are open at the same time (or after FALLBACK_MS, so a writer
 * that never opens that many fails the count instead of hanging): a close waits for it, so how many
 * files are open at once never depends on how fast the disk is.
 */
function enoughOpen(): Promise<void> {
  if (writes.most >= FILE_WRITES_AT_ONCE) return Promise.resolve();
  return new Promise((resolve) => {
    const started = Date.now();
    const check = (): void => (writes.most >= FILE_WRITES_AT_ONCE || Date.now() - started > FALLBACK_MS ? resolve() : void setTimeout(check, 1));
    check();
  });
}

// Observes the staging writer's opens for writing (and their closes), holding each close until enough files are open.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof fsPromises>();
  const open: typeof actual.open = async (path, flags, mode) => {
    const handle = await actual.open(path, flags, mode);
    if (typeof flags !== 'number') return handle;
    writes.open += 1;
    writes.most = Math.max(writes.most, writes.open);
    const close = handle.close.bind(handle);
    handle.close = async () => {
      await enoughOpen();
      writes.open -= 1;
      await close();
    };
    return handle;
  };
  return { ...actual, open };
});

let sandbox: StagingSandbox;
beforeEach(async () => {
  sandbox = await createStagingSandbox();
});
afterEach(async () => {
  await sandbox.remove();
});

function archive(files: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('---\nid: many\n---\nYou help.\n'), 'AGENT.md');
  for (let i = 0; i < files; i += 1) zip.addBuffer(Buffer.alloc(20_000, i), `data/f${i}.bin`);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

describe('staging writes', () => {
  it(`writes ${FILE_WRITES_AT_ONCE} files at once, never more, and every file`, async () => {
    writes.most = 0;
    const zipPath = await sandbox.writeUpload(await archive(24));
    const staged = await stageArchive({ zipPath, stagingRoot: sandbox.stagingRoot, uploadName: undefined }, specDefaultLimits);
    expect(writes.most).toBe(FILE_WRITES_AT_ONCE);
    expect(writes.open).toBe(0);
    expect(await readdir(join(staged.dir, 'data'))).toHaveLength(24);
  });
});
