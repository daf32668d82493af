// A fresh clone of the repository's committed HEAD in a temporary folder, in the state `npm install`
// leaves it: node_modules (a link to this checkout's), dist/ (a copy of this checkout's build) and
// the build's stamp, so `prepare` (scripts/build-if-changed.mjs), which the first `npx portcullis` of
// a checkout runs, finds the build up to date instead of rebuilding for 20 s. The stamp is written
// again in the clone: it fingerprints the inputs' contents, and the clone holds the committed ones,
// which may differ from this checkout's working tree.
// Nothing is downloaded (npm runs offline, with a cache of the clone's own); untracked and ignored
// files of this checkout are not in the clone.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface FreshClone {
  /** The clone. */
  readonly dir: string;
  /** The temporary folder around it, for whatever else a test keeps beside the clone. */
  readonly scratch: string;
  /** A reader's shell environment there: PATH, a HOME of its own, npm offline with a cache of its own. */
  readonly env: Record<string, string>;
  remove(): Promise<void>;
}

export async function freshClone(repo: string): Promise<FreshClone> {
  const scratch = await mkdtemp(join(tmpdir(), 'portcullis-clone-'));
  const dir = join(scratch, 'clone');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: join(scratch, 'home'),
    LANG: 'C.UTF-8',
    npm_config_cache: join(scratch, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  try {
    await mkdir(env.HOME);
    await run('git', ['clone', '--quiet', repo, dir]);
    await symlink(await realpath(join(repo, 'node_modules')), join(dir, 'node_modules'));
    await cp(join(repo, 'dist'), join(dir, 'dist'), { recursive: true });
    await run(process.execPath, ['scripts/build-if-changed.mjs', '--stamp'], { cwd: dir });
    // The first npx of a checkout links it into npx's cache: done once here, not by several shells at once.
    await run('npx', ['portcullis', '--version'], { cwd: dir, env });
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  return { dir, scratch, env, remove: () => rm(scratch, { recursive: true, force: true }) };
}
