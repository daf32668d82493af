// Keys of AppConfig:AI:ChatModel (DESIGN.md §2). Provider requirements beyond the value types
// (which provider needs Endpoint or ApiKey) belong to the models feature, not to start-up.
import { optionalPathCodec } from '../codecs/path-codecs.js';
import { numberCodec } from '../codecs/number-codecs.js';
import { countCodec, secondsCodec } from '../codecs/range-codecs.js';
import { enumCodec, optionalTextCodec } from '../codecs/text-codecs.js';
import { optionalUrlCodec } from '../codecs/url-codecs.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:ChatModel:${name}` as const;
const dollars = numberCodec({ min: 0 });

export const chatModelKeys = defineKeys([
  {
    key: at('Provider'),
    codec: enumCodec(['OpenAI', 'AzureOpenAI', 'Anthropic', 'Scripted'], { nullable: true }),
    default: ({ development }) => (development ? 'Scripted' : null),
    defaultText: 'Scripted in Development, none otherwise',
    meaning: 'OpenAI (any OpenAI-compatible endpoint), AzureOpenAI, Anthropic or the offline Scripted model.',
  },
  { key: at('Endpoint'), codec: optionalUrlCodec, default: null, meaning: 'Provider base URL.' },
  { key: at('ApiKey'), codec: optionalTextCodec, default: null, meaning: 'Provider API key; never logged.', secret: true },
  { key: at('Model'), codec: optionalTextCodec, default: null, meaning: 'Model or deployment name.' },
  { key: at('ApiVersion'), codec: optionalTextCodec, default: null, meaning: 'API version (AzureOpenAI, Anthropic).' },
  { key: at('TimeoutSeconds'), codec: secondsCodec, default: 120, meaning: 'Deadline of one model request.' },
  { key: at('MaxOutputTokens'), codec: countCodec, default: 4096, meaning: 'Output token cap of one model request.' },
  {
    key: at('MaxPromptBytes'),
    codec: countCodec,
    default: 2_097_152,
    meaning: 'UTF-8 bytes of one model request (every message and tool call); a larger one is never sent and its conversation or step fails.',
  },
  {
    key: at('Temperature'),
    codec: numberCodec({ min: 0, max: 2, nullable: true }),
    default: null,
    defaultText: 'unset (provider default)',
    meaning: 'Sampling temperature.',
  },
  { key: at('Pricing:InputPerMillionTokens'), codec: dollars, default: 0, meaning: 'Dollars per million input tokens, for eval reports and run usage.' },
  { key: at('Pricing:OutputPerMillionTokens'), codec: dollars, default: 0, meaning: 'Dollars per million output tokens.' },
  {
    key: at('ScriptPath'),
    codec: optionalPathCodec,
    default: null,
    defaultText: 'built-in script',
    meaning: 'Rules file (YAML) for the Scripted provider.',
  },
]);
