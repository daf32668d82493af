// The package's own name and version, read from its package.json at run time (from `src/` under
// vitest and from `dist/src/` once built), so `/openapi.json`, `--version` and the client report the
// version npm installed. It does not read any other package's manifest.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  readonly name: string;
  readonly version: string;
}

let cached: PackageInfo | undefined;

/** The nearest package.json above this module that names the package `portcullis`. */
export function packageInfo(): PackageInfo {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const found = readManifest(join(dir, 'package.json'));
    if (found !== undefined) return (cached = found);
    const parent = dirname(dir);
    if (parent === dir) throw new Error('the portcullis package.json was not found above this module');
    dir = parent;
  }
}

function readManifest(path: string): PackageInfo | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
  if (manifest.name !== 'portcullis' || typeof manifest.version !== 'string') return undefined;
  return { name: manifest.name, version: manifest.version };
}
