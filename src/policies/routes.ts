// HTTP edge of the policy layer (DESIGN.md §18): the Cedar schema policies are written against, and the
// explain route — what would happen to one call of the caller's on a surface, envelope, policies and
// ceiling combined — for any authenticated caller (rate policy tools-read). Explaining runs nothing,
// counts nothing and writes no line beyond the request's.
import type { AccessPolicy } from '../platform/access/index.js';
import { decideExecution } from '../platform/envelope/index.js';
import { principalOf, problemResponses, type App } from '../platform/http/index.js';
import { ProblemError } from '../platform/problems/index.js';
import { redactText } from '../platform/redaction/index.js';
import { combinedDecision } from '../tools/combined-decision.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { PolicyLayer } from './policy-layer.js';
import { cedarSchemaFor } from './policy-schema.js';
import { policyToolOf } from './policy-layer.js';
import { PolicyEvaluateRequestSchema, PolicyEvaluateResponseSchema, PolicySchemaResponseSchema, type PolicyEvaluateRequest, type PolicyEvaluateResponse } from './schemas.js';
import { policyCatalog } from './start-policies.js';

export interface PolicyRoutesOptions {
  readonly access: AccessPolicy;
  readonly registry: ToolRegistry;
  readonly approvalsEnabled: boolean;
  /** The layer in force; undefined with no policy files. */
  readonly policies: PolicyLayer | undefined;
}

/** Surfaces whose calls can wait for a person (DESIGN.md §18): a run's. */
const WAITING_SURFACES: ReadonlySet<string> = new Set(['bundle', 'workflow']);

export function registerPolicyRoutes(app: App, options: PolicyRoutesOptions): void {
  app.get(
    '/api/policies/schema',
    {
      config: { rateLimit: 'tools-read' },
      schema: {
        operationId: 'getPolicySchema',
        summary: 'The Cedar schema policies are validated against: the caller, the tools, one action per tool operation, each call’s context.',
        tags: ['Policies'],
        response: { 200: PolicySchemaResponseSchema, ...problemResponses(401, 429) },
      },
    },
    // The set in force was validated against its schema; with no policies, the catalog's as it stands.
    async () => (options.policies?.schema ?? cedarSchemaFor((await policyCatalog(options.registry)).tools.map(policyToolOf))) as unknown as Record<string, unknown>,
  );

  app.post(
    '/api/policies/evaluate',
    {
      config: { rateLimit: 'tools-read' },
      schema: {
        operationId: 'evaluatePolicy',
        summary: 'Explain what would happen to one of the caller’s tool calls on a surface: envelope, policies and ceiling combined. Nothing runs.',
        tags: ['Policies'],
        body: PolicyEvaluateRequestSchema,
        response: { 200: PolicyEvaluateResponseSchema, ...problemResponses(400, 401, 429) },
      },
    },
    async (request) => explainCall(options, principalOf(request), request.body),
  );
}

async function explainCall(options: PolicyRoutesOptions, principal: Parameters<AccessPolicy['authorize']>[0], body: PolicyEvaluateRequest): Promise<PolicyEvaluateResponse> {
  const envelope = options.access.authorize(principal, 'capabilities.read');
  const layer = options.policies;
  const surface = body.surface ?? 'direct';
  const unpoliced = { determining: [], errors: [], policyVersion: layer?.version ?? null, mode: layer?.mode ?? null };
  const found = await options.registry.findGranted(envelope, body.tool, AbortSignal.timeout(10_000));
  // Direct invocation offers only directly invocable tools: any other is not there for it.
  const tool = found !== undefined && (surface === 'direct' || surface === 'mcp') && !found.descriptor.isDirectlyInvocable ? undefined : found;
  if (tool === undefined) return { decision: 'deny', denial: 'not-granted', ...unpoliced };
  const operation = tool.descriptor.operations.find((op) => op.name === body.operation);
  if (operation === undefined) {
    throw new ProblemError('validation-failed', `Operation '${redactText(body.operation).slice(0, 128)}' is not declared by this tool. Accepted operations: ${tool.descriptor.operations.map((op) => op.name).join(', ')}.`);
  }
  const parameters = body.arguments ?? {};
  const policy = layer === undefined ? null : layer.explain(principal.ownerId, envelope, tool, operation.name, parameters, surface);
  const decision = decideExecution(envelope, tool.descriptor.name, options.approvalsEnabled ? { approvalsEnabled: true, riskTier: tool.descriptor.riskTier, requireApproval: null } : undefined);
  const combined = combinedDecision({ decision, policy, tool: tool.descriptor, parameters, surface, canWait: options.approvalsEnabled && WAITING_SURFACES.has(surface) });
  const explained = { determining: [...(policy?.determining ?? [])], errors: [...(policy?.errors ?? [])], policyVersion: unpoliced.policyVersion, mode: unpoliced.mode };
  if (combined.verdict === 'denied') return { decision: 'deny', denial: combined.denial, ...explained };
  return { decision: combined.verdict === 'ask' ? 'ask' : 'allow', denial: null, ...explained };
}
