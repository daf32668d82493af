// Response schema of GET /api/capabilities (also its OpenAPI source and its TypeScript type).
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';

export const HostFamiliesSchema = Type.Object(
  {
    bundles: Type.Boolean({ description: 'AppConfig:AI:BundleExecution:Enabled; off, every bundle route answers 403.' }),
    workflows: Type.Boolean({ description: 'Always true: workflows have no switch.' }),
    evals: Type.Boolean({ description: 'AppConfig:AI:Evaluation:Enabled; off, the eval routes answer 403.' }),
    schedules: Type.Boolean({ description: 'AppConfig:Schedules:Enabled; off, the schedule routes answer 403.' }),
  },
  { description: 'Which families this host serves: its switches, the same for every caller (whether this caller may use one is the envelope’s and roles’ business).' },
);

export type HostFamilies = Static<typeof HostFamiliesSchema>;

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
    budget: Type.Object(
      { maxUsdPerRun: Type.Union([Type.Number(), Type.Null()]), maxUsdPerDay: Type.Union([Type.Number(), Type.Null()]), maxUsdPerMonth: Type.Union([Type.Number(), Type.Null()]) },
      { description: 'Spend limits in dollars (DESIGN §16); null is no limit. Roles combine to the smallest of each.' },
    ),
    tools: Type.Array(
      Type.Object({ name: Type.String(), granted: Type.Boolean(), reason: Type.String() }),
      { description: 'Every tool the host offers, granted or not, with the rule that decided.' },
    ),
    families: HostFamiliesSchema,
    policy: Type.Union(
      [
        Type.Object({
          mode: Type.Union([Type.Literal('Enforce'), Type.Literal('Shadow')]),
          version: Type.String({ description: 'First 12 hex digits of the SHA-256 of the policy files, in configured order.' }),
        }),
        Type.Null(),
      ],
      { description: 'The policy layer in force (DESIGN §18); null when none is configured.' },
    ),
  },
  { $id: 'CapabilitiesResponse' },
);

export type CapabilitiesResponse = Static<typeof CapabilitiesResponseSchema>;

const limit = Type.Union([Type.Number(), Type.Null()]);
const total = Type.Object({ spentUsd: Type.Number(), resetsAt: Type.String({ format: 'date-time' }) });

export const SpendResponseSchema = Type.Object(
  {
    currency: Type.Literal('USD'),
    limits: Type.Object({ perRun: limit, perDay: limit, perMonth: limit }, { description: 'From the caller’s envelope; null is no limit.' }),
    day: total,
    month: total,
  },
  { $id: 'SpendResponse', description: 'Spend across every family and instance, counted per owner in UTC days and months (DESIGN §16).' },
);

export type SpendResponse = Static<typeof SpendResponseSchema>;
