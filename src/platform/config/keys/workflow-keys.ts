// Keys of AppConfig:AI:Workflows (DESIGN.md §2 and §6).
import { integerCodec } from '../codecs/number-codecs.js';
import { concurrencyCapCodec, countCodec } from '../codecs/range-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import type { KeyEntry } from '../key-entry.js';

const at = (name: string): string => `AppConfig:AI:Workflows:${name}`;

export const workflowKeys: readonly KeyEntry[] = [
  { key: at('MaxActiveRunsPerOwner'), codec: concurrencyCapCodec, default: 5, meaning: 'Per-owner concurrent workflow runs (409 beyond).' },
  {
    key: at('MaxConcurrentRuns'),
    codec: concurrencyCapCodec,
    default: 32,
    meaning: 'Workflow runs executing at once on each instance (a run parked on a human gate frees its slot); further runs wait Queued.',
  },
  { key: at('MaxConcurrentProgressStreams'), codec: concurrencyCapCodec, default: 64, meaning: 'Open progress streams, host-wide (503 beyond).' },
  { key: at('MaxProgressStreamsPerOwner'), codec: concurrencyCapCodec, default: 4, meaning: 'Open progress streams per caller (503 beyond).' },
  { key: at('MaxDefinitionsPerOwner'), codec: countCodec, default: 200, meaning: 'Stored definitions per caller (409 beyond).' },
  { key: at('MaxSteps'), codec: integerCodec({ min: 1, max: 10_000 }), default: 500, meaning: 'Steps per definition (400 beyond).' },
  { key: at('WatcherBufferFrames'), codec: countCodec, default: 256, meaning: 'Per-watcher frame buffer; oldest dropped, reported by GAP.' },
  { key: at('RunRecordTtl'), codec: timeSpanCodec, default: '00:30:00', meaning: 'How long a finished workflow run stays pollable.' },
];
