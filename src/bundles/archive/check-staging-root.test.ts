import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStagingRoot } from './check-staging-root.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-root-'));
  await mkdir(join(base, 'agents', 'host'), { recursive: true });
  await mkdir(join(base, 'temp'));
  await symlink(join(base, 'agents'), join(base, 'agents-link'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('checkStagingRoot', () => {
  it('accepts a staging root apart from every discovery path', () => {
    expect(checkStagingRoot(join(base, 'temp'), [join(base, 'agents'), join(base, 'skills')])).toBe(true);
    expect(checkStagingRoot(join(base, 'temp'), [])).toBe(true);
  });

  it('refuses a staging root equal to, inside, or containing a discovery path', () => {
    expect(checkStagingRoot(join(base, 'agents'), [join(base, 'agents')])).toBe(false);
    expect(checkStagingRoot(join(base, 'agents', 'host', 'staging'), [join(base, 'agents')])).toBe(false);
    expect(checkStagingRoot(base, [join(base, 'agents', 'host')])).toBe(false);
  });

  it('compares real locations, through symlinks and below paths that do not exist yet', () => {
    expect(checkStagingRoot(join(base, 'agents-link', 'new', 'staging'), [join(base, 'agents')])).toBe(false);
    expect(checkStagingRoot(join(base, 'temp'), [join(base, 'agents-link', 'host')])).toBe(true);
    expect(checkStagingRoot(join(base, 'temp', '..', 'agents'), [join(base, 'agents-link')])).toBe(false);
  });

  it('does not mistake a shared name prefix for containment, and ignores empty discovery entries', () => {
    expect(checkStagingRoot(join(base, 'agents-staging'), [join(base, 'agents')])).toBe(true);
    expect(checkStagingRoot(join(base, 'temp'), ['', '  '])).toBe(true);
  });
});
