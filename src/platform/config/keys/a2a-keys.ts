// Keys of AppConfig:AI:A2A (DESIGN §20): each live bundle handle served as an Agent2Agent (A2A 1.0,
// JSON-RPC) agent for its owner. Off by default; its runs are bundle runs, under BundleExecution's
// switch, limits and envelopes.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { defineKeys } from '../define-keys.js';

export const a2aKeys = defineKeys([
  {
    key: 'AppConfig:AI:A2A:Enabled',
    codec: booleanCodec,
    default: false,
    target: ['a2a', 'enabled'],
    meaning:
      'Serve each live bundle handle as an A2A 1.0 agent for its owner: the agent card at /a2a/{handle}/.well-known/agent-card.json and JSON-RPC at POST /a2a/{handle}; off, both answer 404. Its runs are bundle runs (same envelope, limits, approvals and spend).',
  },
]);
