// `eval run --dataset-file FILE`: a local dataset file (the formats of DESIGN §7: `.yaml`/`.yml`/`.json`
// — the dataset object — or `.jsonl`, one case per line) stored as the caller's own dataset
// `mine/<file name without extension>` (PUT /api/evals/datasets/mine/{name}, DESIGN §19) before the run
// names it. The file is only read and reshaped here; the service validates it exactly as it validates a
// dataset file of its own roots, and its 400 names the case and the field.
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { unwrap, type PortcullisClient } from '../../client/index.js';
import { UsageError } from './remote-command.js';

export interface StoredDatasetFile {
  /** What the run names: `mine/<name>@<version>`, the version just stored. */
  readonly runName: string;
  readonly version: number;
}

/** Reads `file` (relative to `cwd`), PUTs it as `mine/<its name>` and answers the version the run is to use. */
export async function storeDatasetFile(client: PortcullisClient, cwd: string, file: string): Promise<StoredDatasetFile> {
  const path = resolve(cwd, file);
  const extension = extname(path).toLowerCase();
  const name = basename(path, extname(path));
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--dataset-file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const body = datasetObject(file, extension, text);
  const stored = await unwrap(client.api.PUT('/api/evals/datasets/mine/{name}', { params: { path: { name } }, body: body as never }));
  return { runName: `mine/${stored.name}@${stored.version}`, version: stored.version };
}

function datasetObject(file: string, extension: string, text: string): unknown {
  try {
    switch (extension) {
      case '.jsonl':
        return { cases: text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown) };
      case '.json':
        return JSON.parse(text) as unknown;
      case '.yaml':
      case '.yml':
        return parseYaml(text) as unknown;
      default:
        throw new UsageError(`--dataset-file ${file}: a dataset file ends in .yaml, .yml, .json or .jsonl`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--dataset-file ${file}: does not parse as ${extension.slice(1).toUpperCase()} (${(error as Error).message.split('\n')[0]})`);
  }
}
