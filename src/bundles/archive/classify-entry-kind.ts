// What an entry is, from its name and external attributes. Unix hosts carry a mode in the high 16
// bits; DOS-family hosts mark directories with bit 0x10 in the low byte. Devices, FIFOs and sockets
// are refused; a symlink mode from a non-Unix host is refused too, since extractors disagree on it.
import type { ArchiveGuard } from './archive-guard.js';
import type { ArchiveEntryKind } from './archive-entry.js';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;
const UNIX_HOSTS = new Set([3, 19]); // Unix, OS X

export function classifyEntryKind(name: string, versionMadeBy: number, externalAttributes: number): ArchiveEntryKind | ArchiveGuard {
  const namedAsDirectory = name.endsWith('/');
  const type = (externalAttributes >>> 16) & S_IFMT;
  const dosDirectory = (externalAttributes & DOS_DIRECTORY) !== 0;
  switch (type) {
    case 0:
      if (namedAsDirectory) return 'directory';
      return dosDirectory ? 'entry-type-mismatch' : 'file';
    case S_IFDIR:
      return namedAsDirectory ? 'directory' : 'entry-type-mismatch';
    case S_IFREG:
      return namedAsDirectory || dosDirectory ? 'entry-type-mismatch' : 'file';
    case S_IFLNK:
      if (!UNIX_HOSTS.has(versionMadeBy >>> 8)) return 'special-file';
      return namedAsDirectory || dosDirectory ? 'entry-type-mismatch' : 'symlink';
    default:
      return 'special-file';
  }
}
