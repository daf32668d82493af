// The README's "Typed client": its install line installs this checkout by its folder, and its snippet
// runs as printed from a project that did so. `npm install <folder>` links the folder in as
// node_modules/<its package name>; the test makes that same link (npm itself would go to the network)
// and runs the snippet unchanged but for its base URL, pointed at a live Development service: it
// imports `portcullis/client` through the package's exports, prints progress and a verdict, never
// `undefined`.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runProcess, startServe } from '../helpers/cli-process.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

it('the typed-client snippet, installed by its folder as the README says, prints each eval state with its progress or verdict, then the problem of an unknown workflow', async () => {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Typed client'), readme.indexOf('\n## ', readme.indexOf('## Typed client') + 1));
  const install = /```sh\n(npm install (\S+))/.exec(section);
  expect(install?.[1]).toBe('npm install ../portcullis');
  const pkg = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
  expect(pkg.name).toBe('portcullis'); // the folder's package name is what the snippet imports
  expect(Object.keys(pkg.exports)).toContain('./client');
  const snippet = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  expect(snippet).toContain("from 'portcullis/client'");
  const served = await startServe({ cwd: REPO, env: { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__Logging__Level: 'warn' } });
  const project = await mkdtemp(join(tmpdir(), 'portcullis-typed-client-'));
  try {
    await mkdir(join(project, 'node_modules'));
    await symlink(REPO, join(project, 'node_modules', pkg.name), 'dir');
    const file = join(project, 'snippet.mjs');
    await writeFile(file, snippet.replace("'http://127.0.0.1:8080'", JSON.stringify(served.url)));
    const { code, stdout, stderr } = await runProcess(process.execPath, [file], { cwd: project, env: { PATH: process.env.PATH ?? '' } });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.trim().split('\n');
    expect(stdout).not.toContain('undefined');
    expect(lines.slice(0, -1).every((line) => /^(Queued|Running) \d+\/\d+$|^Succeeded (Pass|Warn|Fail)$/.test(line))).toBe(true);
    expect(lines.at(-2)).toMatch(/^Succeeded (Pass|Warn|Fail)$/); // capitals fails under the offline Scripted model: the verdict, not its value, is the point
    expect(lines.at(-1)).toMatch(/^404 Not found .+ [0-9a-f-]{36}$/);
  } finally {
    await served.stop();
    await rm(project, { recursive: true, force: true });
  }
});
