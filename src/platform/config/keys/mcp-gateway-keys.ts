// Keys of AppConfig:AI:McpGateway (DESIGN.md §15): each caller's granted tools served as an MCP server
// at /mcp. Off by default; its limits are direct invocation's (DirectToolInvocation:*), shared with it.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { defineKeys } from '../define-keys.js';

export const mcpGatewayKeys = defineKeys([
  {
    key: 'AppConfig:AI:McpGateway:Enabled',
    codec: booleanCodec,
    default: false,
    meaning:
      'Serve the caller’s granted tools as an MCP server at /mcp (Streamable HTTP) and its OAuth protected-resource metadata; off, both answer 404. Calls share DirectToolInvocation’s limits.',
  },
]);
