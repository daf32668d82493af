// Keys naming host folders: retrieval indexes, host agents and the global skill pool. Paths are
// resolved against the working directory; their contents are read by the features, not here.
import { listCodec } from '../codecs/list-codec.js';
import { requiredPathCodec } from '../codecs/path-codecs.js';
import { defineKeys } from '../define-keys.js';

export const discoveryKeys = defineKeys([
  {
    key: 'AppConfig:AI:Retrieval:Indexes:{name}:Root',
    codec: requiredPathCodec,
    required: true,
    meaning: 'Folder of .md/.txt documents indexed at start-up for the knowledge tool and RetrievalPlan steps.',
  },
  {
    key: 'AppConfig:AI:Agents:DiscoveryPaths',
    codec: listCodec(requiredPathCodec),
    default: [],
    meaning: 'Folders holding host agents (folders with AGENT.md). TempRoot must not overlap them.',
  },
  {
    key: 'AppConfig:AI:Skills:DiscoveryPaths',
    codec: listCodec(requiredPathCodec),
    default: [],
    meaning: 'Folders forming the global skill pool. TempRoot must not overlap them.',
  },
]);
