// Keys for tools: direct invocation (AppConfig:AI:DirectToolInvocation) and the built-in
// http_fetch tool (AppConfig:AI:Tools:HttpFetch). MCP servers have their own table.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { listCodec } from '../codecs/list-codec.js';
import { concurrencyCapCodec, countCodec, secondsCodec } from '../codecs/range-codecs.js';
import { hostCodec } from '../codecs/host-codec.js';
import { defineKeys } from '../define-keys.js';

const direct = <Name extends string>(name: Name) => `AppConfig:AI:DirectToolInvocation:${name}` as const;
const httpFetch = <Name extends string>(name: Name) => `AppConfig:AI:Tools:HttpFetch:${name}` as const;
const memory = <Name extends string>(name: Name) => `AppConfig:AI:Tools:Memory:${name}` as const;

export const toolKeys = defineKeys([
  { key: direct('Enabled'), codec: booleanCodec, default: false, meaning: 'Turns on POST /api/tools/{name}/invoke (403 while off).' },
  { key: direct('MaxRequestBytes'), codec: countCodec, default: 65_536, meaning: 'Invoke body cap; larger bodies get 413 before being read.' },
  { key: direct('DefaultTimeoutSeconds'), codec: secondsCodec, default: 30, meaning: 'Deadline of one invocation when the request names none (504 beyond).' },
  { key: direct('MaxConcurrentPerCaller'), codec: concurrencyCapCodec, default: 4, meaning: 'Invocations executing at once per caller (429 beyond).' },
  { key: direct('MaxOutputBytes'), codec: countCodec, default: 65_536, meaning: 'Output is cut to this size and flagged outputTruncated (never disclosed).' },
  {
    key: httpFetch('AllowedHosts'),
    codec: listCodec(hostCodec),
    default: [],
    meaning: 'Host names http_fetch may reach; empty means none. Private, loopback and link-local addresses only when listed by IP.',
  },
  { key: httpFetch('MaxResponseBytes'), codec: countCodec, default: 1_048_576, meaning: 'Largest response body http_fetch reads.' },
  { key: httpFetch('TimeoutSeconds'), codec: secondsCodec, default: 10, meaning: 'Deadline of one http_fetch request.' },
  {
    key: memory('MaxBytesPerOwner'),
    codec: countCodec,
    default: 262_144,
    meaning: 'UTF-8 bytes (keys plus serialized values) the memory tool holds per owner; a set beyond it fails.',
  },
  {
    key: memory('MaxOwners'),
    codec: countCodec,
    default: 1000,
    meaning: 'Owners the memory tool holds entries for, host-wide; a new owner\'s first set beyond it fails.',
  },
]);
