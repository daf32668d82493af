// Turns the names of a start request into parsed datasets. A host dataset's name is matched against
// the enumeration of the configured roots (an unknown or malformed name is a 404 before anything is
// read), then each file is size-checked, read and validated (400 naming the file and case). A name
// `mine/<name>[@<version>]` is the starting caller's own dataset (DESIGN.md §19), resolved from storage.
import { datasetNotFound } from '../problems.js';
import { isOwnDatasetName } from '../mine/dataset-name.js';
import type { Dataset } from './dataset.js';
import { listDatasetFiles, type DatasetFile, type ListLog } from './list-dataset-files.js';
import { parseDataset } from './parse-dataset.js';
import { readDatasetText } from './read-dataset-text.js';

export interface DatasetSourceConfig {
  readonly datasetRoots: readonly string[];
  readonly maxDatasetBytes: number;
  readonly maxAssertionsPerCase: number;
}

/** Resolves a caller's own dataset by the name a run gives it; unknown (or foreign) → datasetNotFound. */
export interface OwnDatasetResolver {
  resolve(ownerId: string, runName: string): Promise<Dataset>;
}

/** Whose own datasets `mine/…` names resolve to, and from where. */
export interface OwnDatasets {
  readonly ownerId: string;
  readonly resolver: OwnDatasetResolver;
}

export async function resolveDatasetFiles(config: DatasetSourceConfig, names: readonly string[], log: ListLog): Promise<DatasetFile[]> {
  const files = new Map((await listDatasetFiles(config.datasetRoots, log)).map((file) => [file.name, file]));
  return names.map((name) => {
    const file = files.get(name);
    if (file === undefined) throw datasetNotFound();
    return file;
  });
}

/** The named datasets, in the order named. */
export async function loadDatasets(config: DatasetSourceConfig, names: readonly string[], log: ListLog, own: OwnDatasets): Promise<Dataset[]> {
  const hostNames = names.filter((name) => !isOwnDatasetName(name));
  const files = new Map((await resolveDatasetFiles(config, hostNames, log)).map((file) => [file.name, file]));
  const datasets: Dataset[] = [];
  for (const name of names) {
    const file = files.get(name);
    datasets.push(
      file === undefined ? await own.resolver.resolve(own.ownerId, name) : parseDataset(file, await readDatasetText(file, config.maxDatasetBytes), config),
    );
  }
  return datasets;
}
