// Where the built console lives: `dist/console` under the package root (built by `npm run build`,
// never committed). Found by walking up to package.json, so it is the same folder whether this
// module runs from src/ (tests) or dist/src/ (the installed command).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function defaultConsoleRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('portcullis: package.json not found above the console module');
    dir = parent;
  }
  return join(dir, 'dist', 'console');
}
