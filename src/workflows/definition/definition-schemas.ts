// The fields a workflow definition may carry, as TypeBox schemas: the definition validator refuses
// any other field by these lists, and the OpenAPI document publishes the same schemas, so the
// documented request shape and what the service accepts cannot drift apart. Value checks beyond
// shape (templates, graph, tools) are the validator's; they report every problem at once.
import { Type } from '../../platform/vendor/typebox.js';
import type { TObject } from 'typebox';
import { POSITIVE_TIME_SPAN_PATTERN } from '../../platform/config/index.js';
import { MAX_STEP_NAME_LENGTH, STEP_NAME_PATTERN } from './step-name.js';
import { stepTypes, MAX_QUERIES, MAX_TOP_K, type StepType } from './workflow-definition.js';

const strict = { additionalProperties: false } as const;
const text = (description: string) => Type.String({ minLength: 1, description });

export const stepConfigurationSchemas = {
  LlmCall: Type.Object(
    {
      type: Type.Literal('LlmCall'),
      prompt: text('Template.'),
      system: Type.Optional(Type.String({ description: 'Template.' })),
      maxOutputTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    },
    strict,
  ),
  ToolUse: Type.Object(
    {
      type: Type.Literal('ToolUse'),
      tool: text('A tool this host offers (GET /api/tools).'),
      operation: text('One of the tool’s declared operations.'),
      parameters: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description: 'Checked against the operation’s parameter schema; every string is a template, and templated values are checked at run time.',
        }),
      ),
    },
    strict,
  ),
  HumanGate: Type.Object(
    {
      type: Type.Literal('HumanGate'),
      message: text('Template.'),
      timeout: Type.Optional(
        Type.String({
          maxLength: 64,
          pattern: POSITIVE_TIME_SPAN_PATTERN,
          examples: ['01:00:00', '00:00:30', '2.00:00:00'],
          description: 'Positive TimeSpan such as 01:00:00; expiry counts as rejection.',
        }),
      ),
      responseSchema: Type.Optional(
        Type.Object({}, { additionalProperties: true, description: 'JSON Schema 2020-12 an Approve’s payload must meet (at most 16 KiB, no pattern keywords); the gate’s output carries the payload.' }),
      ),
      approverRoles: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 32, description: 'Roles that decide this gate instead of Approvals:ApproverRoles.' }),
      ),
    },
    strict,
  ),
  ConditionalBranch: Type.Object(
    {
      type: Type.Literal('ConditionalBranch'),
      condition: text('CEL over input and steps; must yield a boolean (matches() is refused).'),
      ifTrue: text('Step taken when the condition is true (an edge to it must exist).'),
      ifFalse: text('Step taken when the condition is false (an edge to it must exist).'),
    },
    strict,
  ),
  SubPlanInvocation: Type.Object({ type: Type.Literal('SubPlanInvocation'), workflowId: text('Another workflow of the same caller.') }, strict),
  RetrievalPlan: Type.Object(
    {
      type: Type.Literal('RetrievalPlan'),
      index: text('A configured retrieval index.'),
      queries: Type.Array(Type.String({ minLength: 1, maxLength: 2_000, description: 'Template.' }), { minItems: 1, maxItems: MAX_QUERIES }),
      topK: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TOP_K, description: 'Default 5.' })),
    },
    strict,
  ),
} as const satisfies Readonly<Record<StepType, TObject>>;

const c = stepConfigurationSchemas;
export const StepConfigurationSchema = Type.Union([c.LlmCall, c.ToolUse, c.HumanGate, c.ConditionalBranch, c.SubPlanInvocation, c.RetrievalPlan]);

const StepSchemas = stepTypes.map((type) =>
  Type.Object(
    { name: Type.String({ maxLength: MAX_STEP_NAME_LENGTH, pattern: STEP_NAME_PATTERN }), type: Type.Literal(type), configuration: stepConfigurationSchemas[type] },
    strict,
  ),
);

export const EdgeSchema = Type.Object(
  { from: Type.String({ minLength: 1 }), to: Type.String({ minLength: 1 }), type: Type.Optional(Type.Literal('ControlFlow')) },
  strict,
);

export const WorkflowConfigurationSchema = Type.Object(
  {
    entryStep: Type.Optional(Type.String({ description: 'Default: the first step listed.' })),
    input: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Default input (`input` in templates and conditions).' })),
  },
  strict,
);

export const WorkflowDefinitionSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Caller-chosen.' }),
    steps: Type.Array(Type.Union(StepSchemas), { minItems: 1, description: 'Discriminated by `type`; `configuration.type` repeats it.' }),
    edges: Type.Optional(Type.Array(EdgeSchema)),
    configuration: Type.Optional(WorkflowConfigurationSchema),
  },
  { $id: 'WorkflowDefinition', ...strict },
);

/** The field names a schema object allows, for the validator's unknown-field check. */
export function fieldsOf(schema: TObject): readonly string[] {
  return Object.keys(schema.properties);
}

export const definitionFields = fieldsOf(WorkflowDefinitionSchema);
export const stepFields = fieldsOf(StepSchemas[0]!);
export const edgeFields = fieldsOf(EdgeSchema);
export const workflowConfigurationFields = fieldsOf(WorkflowConfigurationSchema);
