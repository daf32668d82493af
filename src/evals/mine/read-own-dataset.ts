// Validates a dataset object sent to PUT /api/evals/datasets/mine/{name} exactly as a JSON dataset file
// is validated (DESIGN.md §7, §19): MaxDatasetBytes on its serialized form, then parseDataset, so the
// same 400 names the case and the field. It reads the body; it never changes what is stored.
import { ceilingBreached } from '../problems.js';
import type { Dataset } from '../datasets/dataset.js';
import { parseDataset, type DatasetLimits } from '../datasets/parse-dataset.js';
import { OWN_PREFIX } from './dataset-name.js';
import { emptyDatasetBody } from './problems.js';

export interface OwnDatasetLimits extends DatasetLimits {
  readonly maxDatasetBytes: number;
}

/**
 * The parsed dataset of a stored or submitted object, named `runName` (what a run and its report call
 * it); errors name it `mine/<name>` where a file dataset's name its file.
 */
export function readOwnDataset(name: string, runName: string, content: unknown, limits: OwnDatasetLimits): Dataset {
  if (content === undefined) throw emptyDatasetBody();
  const fileName = `${OWN_PREFIX}${name}`;
  const text = JSON.stringify(content);
  if (Buffer.byteLength(text, 'utf8') > limits.maxDatasetBytes) {
    throw ceilingBreached(`Dataset '${fileName}' is larger than Evaluation:MaxDatasetBytes (${limits.maxDatasetBytes} bytes).`);
  }
  return parseDataset({ name: runName, fileName, format: 'json' }, text, limits);
}
