// Whether a staging root may be used: it must not equal, sit inside, or contain any agent or skill
// discovery path, or an upload could be picked up by host discovery. Paths are compared by their real
// location (symlinks resolved as far as the path exists). Empty discovery entries are ignored.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export function checkStagingRoot(tempRoot: string, discoveryPaths: readonly string[]): boolean {
  const root = realLocation(tempRoot);
  return discoveryPaths.filter((path) => path.trim() !== '').every((path) => {
    const discovery = realLocation(path);
    return !isWithin(root, discovery) && !isWithin(discovery, root);
  });
}

function realLocation(path: string): string {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      return join(realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** True when `inner` is `outer` or lies inside it. */
function isWithin(inner: string, outer: string): boolean {
  const fromOuter = relative(outer, inner);
  return fromOuter === '' || (fromOuter !== '..' && !fromOuter.startsWith(`..${sep}`) && !isAbsolute(fromOuter));
}
