// HTTP edge of the approval contract (DESIGN.md §13): the list (§12's, with `scope` and `status`), one
// approval, and its decision. Rate policies: workflows-read for reads, workflows-write for decisions.
import { listValidatorCompiler, pageOf, principalOf, problemResponses, type App, IdempotencyHeadersSchema } from '../platform/http/index.js';
import type { Approvals } from './approval-service.js';
import { ApprovalIdParamsSchema, ApprovalListQuerySchema, ApprovalListSchema, ApprovalSchema, DecisionRequestSchema } from './schemas.js';

const TAGS = ['Approvals'];

/** Set on the list while Approvals:Enabled is false (decision 4203). */
export const APPROVALS_OFF_HEADER = 'portcullis-notice';
export const APPROVALS_OFF_NOTICE = 'Approvals are off on this host (AppConfig:AI:Approvals:Enabled is false): tool calls never wait for a person, so only workflow HumanGate approvals are listed.';

export function registerApprovalRoutes(app: App, approvals: Approvals): void {
  app.get(
    '/api/approvals',
    {
      config: { rateLimit: 'workflows-read' },
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'listApprovals',
        summary: 'List approvals, newest first: of my runs (scope=mine, the default) or routed to my approver roles (scope=approver); Pending unless status says otherwise.',
        tags: TAGS,
        querystring: ApprovalListQuerySchema,
        response: { 200: ApprovalListSchema, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { scope, status, ...page } = request.query;
      // The body stays as DESIGN §13 gives it (lists empty); the header says why to whoever looks.
      if (!approvals.enabled) reply.header(APPROVALS_OFF_HEADER, APPROVALS_OFF_NOTICE);
      return approvals.list(principalOf(request), { scope: scope ?? 'mine', status: status ?? 'Pending', ...pageOf(page) });
    },
  );

  app.get(
    '/api/approvals/:approvalId',
    {
      config: { rateLimit: 'workflows-read' },
      schema: {
        operationId: 'getApproval',
        summary: 'One approval: to its run’s owner or an approver it is routed to (anyone else: 404).',
        tags: TAGS,
        params: ApprovalIdParamsSchema,
        response: { 200: ApprovalSchema, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request) => approvals.get(principalOf(request), request.params.approvalId),
  );

  app.post(
    '/api/approvals/:approvalId/decision',
    {
      config: { rateLimit: 'workflows-write', idempotent: 'body' },
      schema: {
        operationId: 'decideApprovalById',
        headers: IdempotencyHeadersSchema,
        summary: 'Approve or reject; the same decision again is 200, a different one (or an expired or withdrawn approval) 409, self-approval when it is off 403.',
        tags: TAGS,
        params: ApprovalIdParamsSchema,
        body: DecisionRequestSchema,
        response: { 200: ApprovalSchema, ...problemResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => {
      const { decision, comment, payload } = request.body;
      return approvals.decide(principalOf(request), request.params.approvalId, { decision, comment: comment ?? null, ...(payload === undefined ? {} : { payload }) }, { requestId: request.id });
    },
  );
}
