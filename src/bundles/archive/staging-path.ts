// Maps an archive path to its place in the staging directory. The names were validated already; this
// is the last line of defence and refuses any result that is not strictly inside the directory.
import { join, relative, isAbsolute, sep } from 'node:path';

export function stagingPath(stagingDir: string, archivePath: string): string {
  const target = join(stagingDir, ...archivePath.split('/'));
  const fromRoot = relative(stagingDir, target);
  if (fromRoot === '' || fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot)) {
    throw new Error('A validated archive path left the staging directory.');
  }
  return target;
}
