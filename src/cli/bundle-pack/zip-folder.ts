// Zips an agent folder with yazl: every regular file, directory and symbolic link (as a link entry,
// like `zip -y`), in sorted order with a fixed timestamp so the same folder always gives the same
// bytes. Anything else (a FIFO, a socket, a device) is refused with the server's `special-file` guard.
import { createWriteStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { ArchiveRejected } from '../../bundles/archive/index.js';

/** 1980-01-01, the earliest DOS date: reproducible archives. */
const FIXED_MTIME = new Date(1980, 0, 1);

export interface ZippedFolder {
  readonly entries: number;
}

export async function zipFolder(dir: string, out: string): Promise<ZippedFolder> {
  const zip = new yazl.ZipFile();
  let entries = 0;
  const visit = async (current: string): Promise<void> => {
    for (const name of (await readdir(current)).sort()) {
      const path = join(current, name);
      if (path === out) continue;
      const archivePath = relative(dir, path).split(sep).join('/');
      const stats = await lstat(path);
      if (stats.isDirectory()) {
        zip.addEmptyDirectory(archivePath, { mtime: FIXED_MTIME, mode: 0o40755 });
        entries += 1;
        await visit(path);
      } else if (stats.isFile()) {
        zip.addFile(path, archivePath, { mtime: FIXED_MTIME, mode: 0o100644 });
        entries += 1;
      } else if (stats.isSymbolicLink()) {
        zip.addBuffer(Buffer.from(await readlink(path)), archivePath, { mtime: FIXED_MTIME, mode: 0o120777, compress: false });
        entries += 1;
      } else {
        throw new ArchiveRejected('special-file');
      }
    }
  };
  await visit(dir);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(out));
  return { entries };
}
