// Runs every benchmark in sequence (each prints its JSON figures). `npm run bench`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const benches = ['auth-overhead', 'tool-invoke', 'bundles', 'redaction', 'evals', 'workflows', 'storage'];
let failed = false;
for (const name of benches) {
  const script = fileURLToPath(new URL(`./${name}/run.mjs`, import.meta.url));
  const result = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
