// `prepare` builds only when an input of the build changed (issue 27, stumble 1): the first
// `npx portcullis` of a checkout links it into npx's cache and runs `prepare` again, which rebuilt the
// whole project (20 s, rewriting dist/ under a running service). Here the script runs in a scratch
// project whose `build` counts its runs, so each case shows whether a build happened.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'build-if-changed.mjs');
let project: string;

/** The scratch project's build: bump dist/builds, write the entry point, stamp the inputs — as `npm run build` does. */
const BUILD = `mkdir -p dist/src/cli && echo x >> dist/builds && touch dist/src/cli/main.js && node scripts/build-if-changed.mjs --stamp`;

async function builds(): Promise<number> {
  return (await readFile(join(project, 'dist', 'builds'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
}
async function prepare(): Promise<string> {
  return (await run(process.execPath, [join(project, 'scripts', 'build-if-changed.mjs')], { cwd: project })).stdout;
}
async function check(): Promise<number> {
  return run(process.execPath, [join(project, 'scripts', 'build-if-changed.mjs'), '--check'], { cwd: project }).then(
    () => 0,
    (error: { code: number }) => error.code,
  );
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'portcullis-prepare-'));
  await mkdir(join(project, 'scripts'));
  await mkdir(join(project, 'src', 'client', 'generated'), { recursive: true });
  await copyFile(SCRIPT, join(project, 'scripts', 'build-if-changed.mjs'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, scripts: { build: BUILD } }));
  await writeFile(join(project, 'src', 'a.ts'), 'export const a = 1;\n');
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('scripts/build-if-changed.mjs (the prepare script)', () => {
  it('builds a checkout that was never built, then skips while no input changed', async () => {
    expect(await check()).toBe(1);
    await prepare();
    expect(await builds()).toBe(1);
    expect(await check()).toBe(0);
    expect(await prepare()).toContain('dist/ is up to date');
    expect(await builds()).toBe(1);
  });

  it('builds again when a source changes, appears or disappears', async () => {
    await writeFile(join(project, 'src', 'a.ts'), 'export const a = 22;\n');
    await prepare();
    expect(await builds()).toBe(2);
    await writeFile(join(project, 'src', 'b.ts'), 'export const b = 1;\n');
    await prepare();
    expect(await builds()).toBe(3);
    await unlink(join(project, 'src', 'b.ts'));
    await prepare();
    expect(await builds()).toBe(4);
    await prepare();
    expect(await builds()).toBe(4);
  });

  it('compares contents, not mtimes: a file touched or rewritten with the same bytes builds nothing', async () => {
    const before = await builds();
    const later = new Date(Date.now() + 60_000);
    await utimes(join(project, 'src', 'a.ts'), later, later);
    await writeFile(join(project, 'package.json'), await readFile(join(project, 'package.json')));
    expect(await check()).toBe(0);
    expect(await prepare()).toContain('dist/ is up to date');
    expect(await builds()).toBe(before);
  });

  it('ignores what the build itself writes (the generated client types) and rebuilds a checkout whose dist/ lost its entry point', async () => {
    await writeFile(join(project, 'src', 'client', 'generated', 'openapi.ts'), 'export {};\n');
    expect(await check()).toBe(0);
    await unlink(join(project, 'dist', 'src', 'cli', 'main.js'));
    expect(await check()).toBe(1);
    await prepare();
    expect(await builds()).toBe(5);
  });
});
