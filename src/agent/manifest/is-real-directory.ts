// True only for a directory that is not reached through a symlink at its last component; the
// manifest reader never follows links out of the folder structure it was given.
import { lstat } from 'node:fs/promises';

export async function isRealDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}
