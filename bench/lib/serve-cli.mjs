// One `portcullis serve` from dist/ (or another checkout's `cli`) on a free port, resolved with its URL
// once it prints `listening on`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

/** @returns {Promise<{ url: string, child: import('node:child_process').ChildProcess }>} */
export function serveCli({ cwd, env, cli = CLI, stderr = process.env.BENCH_SERVER_LOG === 'inherit' ? 'inherit' : 'ignore' }) {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', stderr] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /^listening on (\S+)$/m.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}
