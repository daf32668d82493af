import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { letPostgresReachBinaries } from './postgres-binaries.mjs';

const modeOf = async (dir: string): Promise<number> => (await stat(dir)).mode & 0o777;
let root: string | undefined;
afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe('letPostgresReachBinaries', () => {
  it.runIf(process.platform !== 'win32' && userInfo().uid === 0)(
    'gives others search permission, and only that, on every private directory above the binaries (a checkout under mktemp -d)',
    async () => {
      root = await mkdtemp(join(tmpdir(), 'portcullis-private-')); // mode 0700, as mktemp -d makes it
      const inner = join(root, 'c', 'node_modules');
      await mkdir(inner, { recursive: true, mode: 0o700 });
      expect(await modeOf(root)).toBe(0o700);
      const opened = await letPostgresReachBinaries(inner);
      expect(opened).toEqual(expect.arrayContaining([inner, join(root, 'c'), root]));
      for (const dir of [inner, join(root, 'c'), root]) expect(await modeOf(dir)).toBe(0o701);
      expect(await letPostgresReachBinaries(inner)).not.toContain(root);
    },
  );
});
