// Request and response schemas of the approval routes (DESIGN.md §13), for validation and the OpenAPI document.
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';
import { PageQuerySchema, PathId } from '../platform/http/index.js';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
const DateTime = Type.String({ format: 'date-time' });

export const approvalStatuses = ['Pending', 'Approved', 'Rejected', 'Expired', 'Withdrawn'] as const;

export const ApprovalSchema = Type.Object(
  {
    approvalId: Type.String(),
    kind: Type.Enum(['HumanGate', 'ToolCall'], { description: 'A workflow HumanGate step, or a tool call that waits for a person.' }),
    status: Type.Enum(approvalStatuses, { description: 'Expired counts as a rejection; Withdrawn: the run stopped first.' }),
    runKind: Type.Enum(['bundle', 'workflow']),
    jobId: Type.String(),
    workflowId: Type.Optional(Type.String()),
    handle: Type.Optional(Type.String()),
    stepName: Type.Optional(Type.String({ description: 'The waiting step’s path in the run.' })),
    message: Type.Optional(Type.String({ description: 'Redacted.' })),
    tool: Type.Optional(Type.String()),
    operation: Type.Optional(Type.String()),
    arguments: Type.Optional(nullable(Type.String(), 'The call’s parameters as redacted JSON text; null when withheld above the frame ceiling.')),
    riskTier: Type.Optional(Type.String()),
    policyVersion: Type.Optional(Type.String({ description: 'The version of the policy set whose rule asked a person (DESIGN §18); absent when no policy asked.' })),
    reason: Type.String({ description: 'The rule that asked: HumanGate, Supervised ceiling or bundle require-approval.' }),
    responseSchema: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'JSON Schema 2020-12 an Approve’s payload must meet.' })),
    requestedBy: nullable(Type.String(), 'The requester’s name or preferred_username claim.'),
    createdAt: DateTime,
    expiresAt: nullable(DateTime, 'When it expires undecided (as a rejection); null for never.'),
    escalated: Type.Boolean(),
    decision: Type.Optional(
      Type.Object({
        decision: Type.Enum(['Approve', 'Reject']),
        comment: Type.Optional(Type.String()),
        payload: Type.Optional(Type.Unknown()),
        decidedBy: Type.String({ description: 'The decider’s name or preferred_username claim, else their owner id.' }),
        decidedAt: DateTime,
      }),
    ),
  },
  { $id: 'Approval' },
);

export const ApprovalListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    status: Type.Optional(Type.Enum(approvalStatuses, { default: 'Pending', description: 'Only approvals in this status (default Pending).' })),
    scope: Type.Optional(
      Type.Enum(['mine', 'approver'], { default: 'mine', description: '`mine`: approvals of my runs (default); `approver`: those routed to my approver or escalation roles.' }),
    ),
  },
  { additionalProperties: false },
);

export const ApprovalListSchema = Type.Object(
  {
    approvals: Type.Array(ApprovalSchema),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null when nothing follows.' }),
  },
  { $id: 'ApprovalList' },
);

export const ApprovalIdParamsSchema = Type.Object({ approvalId: PathId('The approval’s id.') });

export const DecisionRequestSchema = Type.Object(
  {
    decision: Type.Enum(['Approve', 'Reject']),
    comment: Type.Optional(Type.String({ maxLength: 4000 })),
    payload: Type.Optional(Type.Unknown({ description: 'The typed answer; an Approve must carry one valid against the approval’s responseSchema, when it has one.' })),
  },
  { $id: 'ApprovalDecision', additionalProperties: false },
);

export type ApprovalListQuery = Static<typeof ApprovalListQuerySchema>;
export type DecisionRequestBody = Static<typeof DecisionRequestSchema>;
