// Keys of AppConfig:AI:Workflows (DESIGN.md §2 and §6).
import { integerCodec } from '../codecs/number-codecs.js';
import { concurrencyCapCodec, countCodec } from '../codecs/range-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:Workflows:${name}` as const;

export const workflowKeys = defineKeys([
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
  {
    key: at('MaxRenderedTemplateBytes'),
    codec: countCodec,
    default: 1_048_576,
    meaning: 'UTF-8 bytes of one rendered template (prompt, system text, gate message, query, ToolUse parameters): 400 at start when the input alone exceeds it, else the step fails.',
  },
  { key: at('MaxStepOutputBytes'), codec: countCodec, default: 1_048_576, meaning: 'Largest output (as JSON) one step may keep; a larger one fails the step.' },
  {
    key: at('MaxRunOutputBytes'),
    codec: countCodec,
    default: 4_194_304,
    meaning: 'Step outputs (as JSON, sub-plan outputs included) one run may keep in total; the step that passes it fails.',
  },
  { key: at('WatcherBufferFrames'), codec: countCodec, default: 256, meaning: 'Per-watcher frame buffer; oldest dropped, reported by GAP.' },
  { key: at('RunRecordTtl'), codec: timeSpanCodec, default: '00:30:00', meaning: 'How long a finished workflow run stays pollable.' },
]);
