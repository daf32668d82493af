// The file extensions that make a dataset (DESIGN.md §7) and how a name is derived from a file name.
// Extension order is also the precedence when one root holds the same name twice.

export type DatasetFormat = 'yaml' | 'json' | 'jsonl';

const EXTENSIONS: ReadonlyArray<readonly [string, DatasetFormat]> = [
  ['.yaml', 'yaml'],
  ['.yml', 'yaml'],
  ['.json', 'json'],
  ['.jsonl', 'jsonl'],
];

export interface DatasetFileName {
  readonly name: string;
  readonly format: DatasetFormat;
  /** Position in the precedence order (lower wins). */
  readonly precedence: number;
}

/** The dataset a file name stands for, or null: other extensions, hidden files and bare extensions are not datasets. */
export function datasetFileName(fileName: string): DatasetFileName | null {
  if (fileName.startsWith('.')) return null;
  for (const [index, [extension, format]] of EXTENSIONS.entries()) {
    if (fileName.length > extension.length && fileName.toLowerCase().endsWith(extension)) {
      return { name: fileName.slice(0, -extension.length), format, precedence: index };
    }
  }
  return null;
}
