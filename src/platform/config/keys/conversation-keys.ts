// Keys of AppConfig:AI:Conversations: history replay and the per-conversation budgets.
import { countCodec } from '../codecs/range-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:Conversations:${name}` as const;

export const conversationKeys = defineKeys([
  { key: at('MaxHistoryMessages'), codec: countCodec, default: 50, meaning: 'Recent messages replayed to the agent.' },
  {
    key: at('MaxHistoryBytes'),
    codec: countCodec,
    default: 524_288,
    meaning: 'UTF-8 bytes of history kept and replayed per conversation: the newest messages that fit, within MaxHistoryMessages.',
  },
  {
    key: at('MaxToolResultBytes'),
    codec: countCodec,
    default: 1_048_576,
    meaning: 'Largest tool result handed to the model; a larger one is replaced by a notice saying so (the stream frame too).',
  },
  { key: at('MaxLifetimeTokens'), codec: countCodec, default: 200_000, meaning: 'Cumulative token budget of one conversation.' },
  { key: at('MaxModelCallsPerTurn'), codec: countCodec, default: 25, meaning: 'Model round-trips inside one turn (tool loop bound).' },
  { key: at('Ttl'), codec: timeSpanCodec, default: '1.00:00:00', meaning: 'Sliding lifetime of a conversation\'s history.' },
]);
