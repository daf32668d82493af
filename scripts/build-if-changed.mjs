// `npm install` builds the project through `prepare`, and so does the first `npx portcullis` of a
// checkout: npx links the checkout into its own cache and runs its `prepare` again. That second build
// took 20 s and rewrote dist/ under a running `npm start`. This script builds only when an input of
// the build changed since the last one: it fingerprints every input file (its path and contents, not
// its mtime: a clone, a checkout of another branch and back, or a `touch` change no content) and
// compares with the fingerprint the last build left in dist/.build-inputs.
//
//   node scripts/build-if-changed.mjs          build when an input changed (the `prepare` script)
//   node scripts/build-if-changed.mjs --stamp  record the inputs of the build that just ran (`build`)
//   node scripts/build-if-changed.mjs --check  exit 0 when dist/ is up to date, 1 when a build is due
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampPath = join(root, 'dist', '.build-inputs');
const entryPath = join(root, 'dist', 'src', 'cli', 'main.js');

/** What the build reads: the service and console sources, the build scripts and configuration, the lock. */
const INPUTS = ['src', 'console', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.openapi.json'];
/** Inside those, what the build writes or never reads. */
const SKIPPED = new Set(['node_modules', 'dist', join('src', 'client', 'generated')]);

function fingerprint() {
  const hash = createHash('sha256');
  const visit = (path) => {
    const rel = relative(root, path);
    if (SKIPPED.has(rel) || SKIPPED.has(rel.split(sep).pop())) return;
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
    } else if (stat.isFile()) {
      hash.update(`${rel}\0${stat.size}\0`);
      hash.update(readFileSync(path));
      hash.update('\n');
    }
  };
  for (const input of INPUTS) visit(join(root, input));
  return hash.digest('hex');
}

if (process.argv.includes('--stamp')) {
  writeFileSync(stampPath, `${fingerprint()}\n`);
} else {
  const built = existsSync(stampPath) ? readFileSync(stampPath, 'utf8').trim() : '';
  const upToDate = built === fingerprint() && existsSync(entryPath);
  if (process.argv.includes('--check')) {
    console.log(upToDate ? 'up to date' : 'build due');
    process.exitCode = upToDate ? 0 : 1;
  } else if (upToDate) {
    console.log('portcullis: dist/ is up to date with its sources (`npm run build` rebuilds it anyway)');
  } else {
    const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    process.exitCode = result.status ?? 1;
  }
}
