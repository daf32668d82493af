// Wire shapes of the policy routes (DESIGN.md §18): the explain request and answer. The schema route
// answers Cedar's JSON schema format as it is.
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';

const surfaces = ['bundle', 'workflow', 'eval', 'direct', 'mcp'] as const;

export const PolicyEvaluateRequestSchema = Type.Object(
  {
    tool: Type.String({ minLength: 1, maxLength: 256 }),
    operation: Type.String({ minLength: 1, maxLength: 256 }),
    arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'The call’s parameters, as the tool’s operation takes them.' })),
    surface: Type.Optional(Type.Union(surfaces.map((s) => Type.Literal(s)), { description: 'Where the call would be made; default direct.' })),
  },
  { additionalProperties: false, $id: 'PolicyEvaluateRequest' },
);
export type PolicyEvaluateRequest = Static<typeof PolicyEvaluateRequestSchema>;

export const PolicyEvaluateResponseSchema = Type.Object(
  {
    decision: Type.Union([Type.Literal('allow'), Type.Literal('ask'), Type.Literal('deny')], { description: 'What would happen to the call on that surface: envelope, policy and ceiling combined.' }),
    denial: Type.Union(
      [Type.Literal('not-granted'), Type.Literal('policy'), Type.Literal('autonomy'), Type.Literal('data-classification'), Type.Literal('approval'), Type.Null()],
      { description: 'Why it would be denied; null unless `decision` is deny.' },
    ),
    determining: Type.Array(Type.String(), { description: 'Ids of the policies that determined the policy layer’s decision.' }),
    errors: Type.Array(Type.String(), { description: 'Ids of the policies that failed to evaluate (the call is then denied).' }),
    policyVersion: Type.Union([Type.String(), Type.Null()], { description: 'The policy set’s version; null with no policy layer.' }),
    mode: Type.Union([Type.Literal('Enforce'), Type.Literal('Shadow'), Type.Null()], { description: 'Shadow: the policies are recorded, not enforced; null with no policy layer.' }),
  },
  { $id: 'PolicyEvaluateResponse' },
);
export type PolicyEvaluateResponse = Static<typeof PolicyEvaluateResponseSchema>;

export const PolicySchemaResponseSchema = Type.Record(Type.String(), Type.Unknown(), {
  $id: 'PolicySchemaResponse',
  description: 'The Cedar schema (Cedar’s JSON schema format) policies are validated against: namespace Portcullis.',
});
