// Keys of AppConfig:AI:BundleExecution itself (SPEC.md "Limits", DESIGN.md §2). Auth and
// Envelopes, also under BundleExecution, have their own tables.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { numberCodec } from '../codecs/number-codecs.js';
import { pathOrEmptyCodec } from '../codecs/path-codecs.js';
import { concurrencyCapCodec, countCodec } from '../codecs/range-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:BundleExecution:${name}` as const;

export const bundleExecutionKeys = defineKeys([
  { key: at('Enabled'), codec: booleanCodec, default: false, meaning: 'Master toggle; off means every bundle endpoint answers 403.' },
  {
    key: at('TempRoot'),
    codec: pathOrEmptyCodec,
    default: '',
    defaultText: 'empty (system temp)',
    meaning: 'Staging root; must not overlap any skill or agent discovery path, else staging is refused.',
  },
  { key: at('MaxArchiveBytes'), codec: countCodec, default: 10_485_760, meaning: 'Archive size on the wire; also caps the multipart body.' },
  { key: at('MaxEntryCount'), codec: countCodec, default: 2000, meaning: 'Archive entries.' },
  { key: at('MaxTotalUncompressedBytes'), codec: countCodec, default: 52_428_800, meaning: 'Total expansion.' },
  {
    key: at('MaxCompressionRatio'),
    codec: numberCodec({ min: 1 }),
    default: 100,
    meaning: 'Expansion factor; applied only once a bundle expands past 1 MiB.',
  },
  { key: at('HandleTtl'), codec: timeSpanCodec, default: '00:30:00', meaning: 'Sliding handle lifetime; refreshed on every lookup and run start.' },
  { key: at('RunRecordTtl'), codec: timeSpanCodec, default: '00:30:00', meaning: 'How long a terminal run stays pollable.' },
  { key: at('StreamReservationTtl'), codec: timeSpanCodec, default: '00:05:00', meaning: 'Unclaimed stream reservation lifetime.' },
  {
    key: at('MaxConcurrentStreamsPerCaller'),
    codec: concurrencyCapCodec,
    default: 4,
    meaning: 'Open bundle streams per caller; excess gets 429.',
  },
  {
    key: at('MaxConcurrentDispatchedBundleRuns'),
    codec: concurrencyCapCodec,
    default: 4,
    meaning: 'Background runs executed at once, host-wide; further runs wait, and each slot that frees goes to the owner with the fewest running (see Limits).',
  },
  {
    key: at('MaxActiveBundleRunsPerOwner'),
    codec: concurrencyCapCodec,
    default: 10,
    meaning: 'Queued or executing runs per caller, any dispatch mode; excess gets 429.',
  },
  { key: at('CleanupInterval'), codec: timeSpanCodec, default: '00:01:00', meaning: 'Sweeper period.' },
  {
    key: at('StreamFrameCeilingBytes'),
    codec: countCodec,
    default: 65_536,
    meaning: 'Size above which a stream delta/content is withheld (never disclosed in responses).',
  },
]);
