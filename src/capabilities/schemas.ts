// Response schema of GET /api/capabilities (also its OpenAPI source and its TypeScript type).
import { Type, type Static } from 'typebox';

export const CapabilitiesResponseSchema = Type.Object(
  {
    source: Type.Union([Type.Literal('subject'), Type.Literal('roles'), Type.Literal('default'), Type.Literal('anonymous')]),
    matchedRoles: Type.Array(Type.String()),
    allowedTools: Type.Array(Type.String()),
    allowedMcpServers: Type.Array(Type.String()),
    autonomyCeiling: Type.Union([Type.Literal('Restricted'), Type.Literal('Supervised'), Type.Literal('Autonomous')]),
    autoApproveUpTo: Type.Union([Type.Literal('None'), Type.Literal('Trivial'), Type.Literal('Low'), Type.Literal('Medium'), Type.Literal('High')], {
      description: 'Under Supervised with approvals on: tools at or below this risk tier run without asking (DESIGN §13).',
    }),
    tools: Type.Array(
      Type.Object({ name: Type.String(), granted: Type.Boolean(), reason: Type.String() }),
      { description: 'Every tool the host offers, granted or not, with the rule that decided.' },
    ),
  },
  { $id: 'CapabilitiesResponse' },
);

export type CapabilitiesResponse = Static<typeof CapabilitiesResponseSchema>;
