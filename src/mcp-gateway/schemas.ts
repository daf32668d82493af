// Schemas of the gateway: a tools/call's arguments (the model-facing `{ operation, parameters }` of
// DESIGN.md §5, nothing else) and the RFC 9728 protected-resource metadata document it publishes.
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';

export const McpToolArgumentsSchema = Type.Object(
  {
    operation: Type.String({ minLength: 1, maxLength: 128 }),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

export const ProtectedResourceMetadataSchema = Type.Object(
  {
    resource: Type.String({ description: 'The MCP gateway endpoint, `<origin>/mcp`, as the client reached it.' }),
    authorization_servers: Type.Optional(
      Type.Array(Type.String(), { description: 'The identity provider’s authority `{Instance}{TenantId}/v2.0`; absent in anonymous mode.' }),
    ),
    bearer_methods_supported: Type.Array(Type.Literal('header')),
    scopes_supported: Type.Optional(Type.Array(Type.String(), { description: 'The scope that asks for a token for this API (audience `api://{ClientId}`).' })),
    resource_name: Type.String(),
  },
  { $id: 'ProtectedResourceMetadata', description: 'RFC 9728 OAuth 2.0 Protected Resource Metadata of the MCP gateway.' },
);

export type McpToolArguments = Static<typeof McpToolArgumentsSchema>;
export type ProtectedResourceMetadata = Static<typeof ProtectedResourceMetadataSchema>;
