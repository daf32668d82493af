// Request/response schemas of the tool routes: they validate, type the handlers and feed OpenAPI.
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';

export const RiskTierSchema = Type.Union(
  [Type.Literal('Trivial'), Type.Literal('Low'), Type.Literal('Medium'), Type.Literal('High'), Type.Literal('Critical')],
  { description: 'Blast-radius tier.' },
);

const catalogEntryProperties = {
  name: Type.String({ description: 'Exact name used in a ToolUse step and in AllowedTools.' }),
  description: Type.String(),
  operations: Type.Array(Type.String(), { description: 'Operation names the tool accepts.' }),
  riskTier: RiskTierSchema,
  isReadOnly: Type.Boolean(),
  isConcurrencySafe: Type.Boolean(),
  isDirectlyInvocable: Type.Boolean({
    description: 'False means not offered on the invoke endpoint; it is not a permission statement.',
  }),
};

export const ToolCatalogEntrySchema = Type.Object(catalogEntryProperties, { $id: 'ToolCatalogEntry' });

export const ToolDescriptionSchema = Type.Object(
  {
    ...catalogEntryProperties,
    parameters: Type.Record(Type.String(), Type.Unknown(), {
      description: 'JSON Schema of each operation’s `parameters` object, keyed by operation name.',
    }),
  },
  { $id: 'ToolDescription' },
);

export const ToolCatalogResponseSchema = Type.Object(
  { tools: Type.Array(Type.Ref('ToolCatalogEntry'), { description: 'Ordered by name; empty is a successful answer.' }) },
  { $id: 'ToolCatalogResponse' },
);

// No length bounds: SPEC.md gives describe no 400, so an empty or overlong name is simply a tool that
// does not exist (404), exactly like any other unknown name.
// No length limits here: any name no tool has (empty, over-long) must answer exactly like an unknown
// tool (the service's 404), and the router already caps a path segment at 512 characters.
export const ToolNameParamsSchema = Type.Object({ name: Type.String({ description: 'Tool name, case-insensitive.' }) });

export const MAX_TIMEOUT_SECONDS = 300;

export const ToolInvocationRequestSchema = Type.Object(
  {
    operation: Type.String({ minLength: 1, maxLength: 128, description: 'Must be one the tool declares.' }),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Per-operation arguments.' })),
    timeoutSeconds: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: MAX_TIMEOUT_SECONDS, description: 'Per-call deadline (default 30 s).' }),
    ),
  },
  { $id: 'ToolInvocationRequest', additionalProperties: false },
);

export const ToolInvocationResponseSchema = Type.Object(
  {
    tool: Type.String(),
    operation: Type.String(),
    succeeded: Type.Boolean({ description: 'The tool’s verdict.' }),
    output: Type.Optional(Type.String({ description: 'On success; sanitized, bounded, never compressed.' })),
    error: Type.Optional(Type.String({ description: 'On tool-reported failure; sanitized.' })),
    outputTruncated: Type.Boolean({ description: 'True when output was cut to the host ceiling (a truthful prefix).' }),
    durationMs: Type.Integer(),
  },
  { $id: 'ToolInvocationResponse' },
);

export type ToolCatalogEntry = Static<typeof ToolCatalogEntrySchema>;
export type ToolDescription = Static<typeof ToolDescriptionSchema>;
export type ToolInvocationRequest = Static<typeof ToolInvocationRequestSchema>;
export type ToolInvocationResponse = Static<typeof ToolInvocationResponseSchema>;
