// Enumerates the datasets of the configured roots: regular files directly inside each root (not
// recursive, symlinks not followed) with a dataset extension. The first root, then the extension
// precedence, decides which file a name stands for. Names are matched against this enumeration only,
// so a name can never be a path: `../x`, `/etc/passwd` or `a/b` are simply not in it.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { datasetFileName, type DatasetFormat } from './dataset-formats.js';

export interface DatasetFile {
  readonly name: string;
  readonly fileName: string;
  readonly path: string;
  readonly format: DatasetFormat;
}

export interface ListLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/** Every dataset, by name, sorted by name (code units), first match winning. Unreadable roots contribute nothing. */
export async function listDatasetFiles(roots: readonly string[], log: ListLog): Promise<DatasetFile[]> {
  const byName = new Map<string, DatasetFile>();
  for (const [index, root] of roots.entries()) {
    for (const file of await filesOf(root, index, log)) {
      if (!byName.has(file.name)) byName.set(file.name, file);
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function filesOf(root: string, index: number, log: ListLog): Promise<DatasetFile[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    log.warn({ datasetRoot: index, code: (error as NodeJS.ErrnoException).code }, 'An eval dataset root could not be read; it lists nothing.');
    return [];
  }
  const found = entries.flatMap((entry) => {
    const parsed = entry.isFile() ? datasetFileName(entry.name) : null;
    return parsed === null ? [] : [{ ...parsed, fileName: entry.name, path: join(root, entry.name) }];
  });
  found.sort((a, b) => a.precedence - b.precedence);
  return found.map(({ name, fileName, path, format }) => ({ name, fileName, path, format }));
}
