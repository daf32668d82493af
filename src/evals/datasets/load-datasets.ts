// Turns the names of a start request into parsed datasets: every name is matched against the
// enumeration of the configured roots (an unknown or malformed name is a 404 before anything is
// read), then each file is size-checked, read and validated (400 naming the file and case).
import { datasetNotFound } from '../problems.js';
import type { Dataset } from './dataset.js';
import { listDatasetFiles, type DatasetFile, type ListLog } from './list-dataset-files.js';
import { parseDataset } from './parse-dataset.js';
import { readDatasetText } from './read-dataset-text.js';

export interface DatasetSourceConfig {
  readonly datasetRoots: readonly string[];
  readonly maxDatasetBytes: number;
  readonly maxAssertionsPerCase: number;
}

export async function resolveDatasetFiles(config: DatasetSourceConfig, names: readonly string[], log: ListLog): Promise<DatasetFile[]> {
  const files = new Map((await listDatasetFiles(config.datasetRoots, log)).map((file) => [file.name, file]));
  return names.map((name) => {
    const file = files.get(name);
    if (file === undefined) throw datasetNotFound();
    return file;
  });
}

export async function loadDatasets(config: DatasetSourceConfig, names: readonly string[], log: ListLog): Promise<Dataset[]> {
  const files = await resolveDatasetFiles(config, names, log);
  const datasets: Dataset[] = [];
  for (const file of files) datasets.push(parseDataset(file, await readDatasetText(file, config.maxDatasetBytes), config));
  return datasets;
}
