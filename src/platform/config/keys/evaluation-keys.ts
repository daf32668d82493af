// Keys of AppConfig:AI:Evaluation (SPEC.md "Limits", DESIGN.md §2). Enabling without DatasetRoots
// is refused by rules/evaluation-roots-rule.ts.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { listCodec } from '../codecs/list-codec.js';
import { optionalPathCodec, requiredPathCodec } from '../codecs/path-codecs.js';
import { concurrencyCapCodec, countCodec } from '../codecs/range-codecs.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:Evaluation:${name}` as const;

export const evaluationKeys = defineKeys([
  { key: at('Enabled'), codec: booleanCodec, default: false, meaning: 'Master toggle (403 when off).' },
  {
    key: at('DatasetRoots'),
    codec: listCodec(requiredPathCodec),
    default: [],
    meaning: 'Directories datasets are read from; enabling with none refuses start-up.',
  },
  { key: at('MaxDatasetsPerRun'), codec: countCodec, default: 10, meaning: 'Datasets per run.' },
  { key: at('MaxCaseExecutionsPerRun'), codec: countCodec, default: 500, meaning: 'Cases times repeats; refuses, never truncates.' },
  { key: at('MaxDatasetBytes'), codec: countCodec, default: 5_242_880, meaning: 'Checked before the file is opened.' },
  { key: at('MaxAssertionsPerCase'), codec: countCodec, default: 50, meaning: 'Assertions one case may carry; a dataset with more is refused at start (400).' },
  { key: at('MaxRepeats'), codec: countCodec, default: 50, meaning: 'Ceiling on repeats.' },
  { key: at('MaxParallelism'), codec: concurrencyCapCodec, default: 128, meaning: 'Ceiling on parallelism.' },
  { key: at('MaxActiveRunsPerOwner'), codec: concurrencyCapCodec, default: 2, meaning: 'Per-owner concurrent eval runs (400 beyond).' },
  {
    key: at('MaxConcurrentRuns'),
    codec: concurrencyCapCodec,
    default: 4,
    meaning: 'Eval runs executing at once on each instance (one per owner at a time); further runs wait Queued.',
  },
  {
    key: at('ReportsRoot'),
    codec: optionalPathCodec,
    default: null,
    defaultText: 'empty',
    meaning: 'When set, each finished report is also written there as JSON.',
  },
]);
