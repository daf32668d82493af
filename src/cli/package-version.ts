// The version of the installed package, read from the package.json above this module. The module
// runs from src/ under the tests and from dist/src/ once built, so it walks up rather than assuming
// a depth; `portcullis --version` prints it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'portcullis' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no package.json here (or not ours): keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
