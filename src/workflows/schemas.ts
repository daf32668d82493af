// Request, response and event schemas of the workflow routes (DESIGN §6): they type the handlers,
// serialise the responses and produce the OpenAPI document. Definition bodies are checked by the
// definition validator (every problem at once, as diagnostics) against the same field lists the
// published WorkflowDefinition schema is built from (definition/definition-schemas.ts).
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';
import { PageQuerySchema, PathId } from '../platform/http/index.js';
import { StepConfigurationSchema, WorkflowDefinitionSchema } from './definition/definition-schemas.js';
import { diagnosticCodes } from './definition/diagnostic.js';
import { stepTypes } from './definition/workflow-definition.js';
import { runStatuses, stepStatuses } from './runs/run-status.js';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
const DateTime = Type.String({ format: 'date-time' });

export const StepTypeSchema = Type.Enum(stepTypes, { description: 'Step type.' });

export { WorkflowDefinitionSchema };

export const DiagnosticSchema = Type.Object(
  {
    code: Type.Enum(diagnosticCodes),
    step: Type.Optional(Type.String({ description: 'The step concerned, by name.' })),
    edge: Type.Optional(Type.Integer({ description: 'Zero-based index of the edge concerned.' })),
    message: Type.String(),
  },
  { $id: 'WorkflowDiagnostic' },
);

/**
 * What validate reads: any JSON. It is a dry run that reports, so a body WorkflowDefinition refuses (an
 * unknown field, a wrong type, not an object) is answered 200 with `valid: false` and its diagnostics.
 */
export const CandidateDefinitionSchema = Type.Unknown({
  $id: 'CandidateWorkflowDefinition',
  description: 'A candidate WorkflowDefinition, as any JSON: whatever does not conform is reported in `diagnostics` (200, `valid: false`), never refused.',
});

export const ValidateResponseSchema = Type.Object(
  { valid: Type.Boolean(), diagnostics: Type.Array(Type.Ref('WorkflowDiagnostic')) },
  { $id: 'ValidateWorkflowResponse' },
);

export const SubmitResponseSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    steps: Type.Array(Type.Object({ name: Type.String(), id: Type.String() }), { description: 'Step names mapped to server-assigned ids.' }),
    createdAt: DateTime,
  },
  { $id: 'SubmitWorkflowResponse' },
);

export const WorkflowListSchema = Type.Object(
  { workflows: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), createdAt: DateTime }), { description: 'Newest first.' }) },
  { $id: 'WorkflowList' },
);

export const WorkflowDetailSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdAt: DateTime,
    steps: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), type: StepTypeSchema, configuration: StepConfigurationSchema })),
    edges: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), type: Type.Literal('ControlFlow') })),
    configuration: Type.Object({ entryStep: Type.String(), input: Type.Record(Type.String(), Type.Unknown()) }),
  },
  { $id: 'WorkflowDetail' },
);

const WorkflowId = PathId('The workflow’s id (a UUID the submit returned).');
const JobId = PathId('The run’s job id.');
export const WorkflowParamsSchema = Type.Object({ workflowId: WorkflowId });
export const RunParamsSchema = Type.Object({ workflowId: WorkflowId, jobId: JobId });
export const ApprovalParamsSchema = Type.Object({ workflowId: WorkflowId, jobId: JobId, approvalId: PathId('The approval’s id (from the run’s pendingApprovals).') });

export const StartRunRequestSchema = Type.Object(
  { input: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Merged over the definition’s `configuration.input`.' })) },
  { $id: 'StartWorkflowRunRequest', additionalProperties: false },
);

export const StartRunResponseSchema = Type.Object(
  { jobId: Type.String(), statusUrl: Type.String({ description: 'Relative URL of the poll endpoint (also in Location).' }) },
  { $id: 'StartWorkflowRunResponse' },
);

const StepProjectionSchema = Type.Object({
  name: Type.String({ description: 'Child steps of a sub-plan are prefixed with its step name and `/`.' }),
  id: Type.String(),
  type: StepTypeSchema,
  status: Type.Enum(stepStatuses),
  startedAt: nullable(DateTime),
  completedAt: nullable(DateTime),
  output: Type.Unknown({ description: 'Redacted. LlmCall: text; ToolUse: tool output (JSON when it parses); HumanGate: {decision, comment}; ConditionalBranch: boolean; SubPlanInvocation: child outputs by name; RetrievalPlan: [{id, title, text, score}].' }),
  error: nullable(Type.String()),
});

export const RunProjectionSchema = Type.Object(
  {
    jobId: Type.String(),
    workflowId: Type.String(),
    status: Type.Enum(runStatuses),
    createdAt: DateTime,
    startedAt: nullable(DateTime),
    completedAt: nullable(DateTime),
    error: nullable(Type.String(), 'Caller-safe reason when the run failed or was cancelled.'),
    steps: Type.Array(StepProjectionSchema),
    pendingApprovals: Type.Array(
      Type.Object({ approvalId: Type.String(), stepName: Type.String(), message: Type.String(), createdAt: DateTime }),
    ),
  },
  { $id: 'WorkflowRunResponse', description: 'Never echoes the run’s envelope, owner, tenant or input.' },
);

export const RunListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    status: Type.Optional(Type.Enum(runStatuses, { description: 'Only runs in this status.' })),
    workflowId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only runs of this workflow.' })),
  },
  { additionalProperties: false },
);

const nextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null when nothing follows.' });

export const RunListSchema = Type.Object(
  { runs: Type.Array(Type.Object(RunProjectionSchema.properties), { description: 'Poll bodies, newest first.' }), nextCursor },
  { $id: 'WorkflowRunList' },
);

export const ApprovalListSchema = Type.Object(
  {
    approvals: Type.Array(
      Type.Object({
        approvalId: Type.String(),
        workflowId: Type.String(),
        jobId: Type.String(),
        stepName: Type.String(),
        message: Type.String({ description: 'Redacted.' }),
        createdAt: DateTime,
        expiresAt: nullable(DateTime, 'When the gate’s timeout rejects it; null without a timeout.'),
      }),
    ),
    nextCursor,
  },
  { $id: 'PendingApprovalList' },
);

export const CancelResponseSchema = Type.Object(
  {
    stopped: Type.Boolean({ description: 'True when the run was cancelled outright (Queued); false means signalled, poll to confirm.' }),
    withdrawnApprovals: Type.Integer({ description: 'Approval requests withdrawn once the run stopped.' }),
  },
  { $id: 'CancelWorkflowRunResponse' },
);

export const ApprovalRequestSchema = Type.Object(
  { decision: Type.Enum(['Approve', 'Reject']), comment: Type.Optional(Type.String({ maxLength: 4000 })) },
  { $id: 'ApprovalDecisionRequest', additionalProperties: false },
);

export const ApprovalResponseSchema = Type.Object(
  { approvalId: Type.String(), decision: Type.Enum(['Approve', 'Reject']) },
  { $id: 'ApprovalDecisionResponse' },
);

export type StartRunRequest = Static<typeof StartRunRequestSchema>;
export type ApprovalRequest = Static<typeof ApprovalRequestSchema>;
export type SubmitResponse = Static<typeof SubmitResponseSchema>;
export type WorkflowDetail = Static<typeof WorkflowDetailSchema>;
export type WorkflowList = Static<typeof WorkflowListSchema>;
