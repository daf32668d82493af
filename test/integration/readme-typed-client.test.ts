// The README's "Typed client" snippet, run as printed (its import pointed at the built client, its
// base URL at a live Development service): it prints progress and a verdict, never `undefined`.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runProcess, startServe } from '../helpers/cli-process.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CLIENT = join(REPO, 'dist/src/client/index.js');

it('the typed-client snippet prints each eval state with its progress or verdict, then the problem of an unknown workflow', async () => {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Typed client'));
  const snippet = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const served = await startServe({ cwd: REPO, env: { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__Logging__Level: 'warn' } });
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-typed-client-'));
  try {
    const file = join(dir, 'snippet.mjs');
    await writeFile(file, snippet.replace("'portcullis/client'", JSON.stringify(CLIENT)).replace("'http://127.0.0.1:8080'", JSON.stringify(served.url)));
    const { code, stdout, stderr } = await runProcess(process.execPath, [file], { cwd: dir, env: { PATH: process.env.PATH ?? '' } });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.trim().split('\n');
    expect(stdout).not.toContain('undefined');
    expect(lines.slice(0, -1).every((line) => /^(Queued|Running) \d+\/\d+$|^Succeeded (Pass|Warn|Fail)$/.test(line))).toBe(true);
    expect(lines.at(-2)).toMatch(/^Succeeded (Pass|Warn|Fail)$/); // capitals fails under the offline Scripted model: the verdict, not its value, is the point
    expect(lines.at(-1)).toMatch(/^404 Not found .+ [0-9a-f-]{36}$/);
  } finally {
    await served.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
