// Keys of AppConfig:AI:McpServers:{name}: host-defined external tool servers (a bundle can only
// name them). Which fields a transport needs is checked by rules/mcp-server-rule.ts.
import { enumCodec, optionalTextCodec, verbatimTextCodec } from '../codecs/text-codecs.js';
import { listCodec } from '../codecs/list-codec.js';
import { optionalUrlCodec } from '../codecs/url-codecs.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:McpServers:{name}:${name}` as const;

export const mcpServerKeys = defineKeys([
  {
    key: at('Transport'),
    codec: enumCodec(['stdio', 'http']),
    required: true,
    meaning: 'stdio (with Command, Args, Env) or http (Streamable HTTP, with Url, Headers).',
  },
  { key: at('Command'), codec: optionalTextCodec, default: null, meaning: 'stdio: the program to start.' },
  { key: at('Args'), codec: listCodec(verbatimTextCodec), default: [], meaning: 'stdio: its arguments.' },
  { key: at('Env:{variable}'), codec: verbatimTextCodec, meaning: 'stdio: extra environment variables.', secret: true },
  { key: at('Url'), codec: optionalUrlCodec, default: null, meaning: 'http: the server endpoint (http or https).' },
  { key: at('Headers:{header}'), codec: verbatimTextCodec, meaning: 'http: extra request headers.', secret: true },
]);
