// The quickstart's terminal 1 (`npx portcullis dev-idp --port 9400 > .portcullis/idp.env`) as a shell
// runs it, with the built executable: the moment it says it is listening (on stderr), the env file its
// stdout goes to already holds every settings line, so terminal 2 can source it at once (issue 42).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI } from '../helpers/cli-process.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-dev-idp-env-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

it('has written the env file when it prints "listening on"', async () => {
  const child = spawn('sh', ['-c', `exec '${process.execPath}' '${CLI}' dev-idp --port 0 --state state > idp.env`], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    // Read the file in the same turn the line arrives, as a reader's next command would.
    const atListening = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes('listening on')) readFile(join(dir, 'idp.env'), 'utf8').then(resolve, reject);
      });
      void exited.then((code) => reject(new Error(`dev-idp exited ${code} before it said it listens: ${stderr}`)));
    });
    const lines = atListening.trimEnd().split('\n');
    expect(lines.map((line) => line.split('=')[0])).toEqual(
      ['Instance', 'TenantId', 'ClientId', 'RequireHttpsMetadata', 'AllowAnonymous'].map((key) => `AppConfig__AI__BundleExecution__Auth__${key}`),
    );
    expect(lines.every((line) => /^\w+=\S+$/.test(line))).toBe(true);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
});
