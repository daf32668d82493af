// Keys of AppConfig:AI:Policies (DESIGN.md §18): the Cedar policy files that allow, ask or deny a tool
// call from what it does, and whether they are enforced or only recorded. No files: no policy layer.
import { enumCodec } from '../codecs/text-codecs.js';
import { listCodec } from '../codecs/list-codec.js';
import { requiredPathCodec } from '../codecs/path-codecs.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:Policies:${name}` as const;

export const policyKeys = defineKeys([
  {
    key: at('Files'),
    codec: listCodec(requiredPathCodec),
    default: [],
    meaning: '`.cedar` policy files (absolute, or relative to the working directory), read in this order; empty: no policy layer.',
  },
  {
    key: at('Mode'),
    codec: enumCodec(['Enforce', 'Shadow']),
    default: 'Enforce',
    meaning: 'Shadow: policies decide and every decision is recorded, but none is enforced.',
  },
]);
