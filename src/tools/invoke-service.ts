// Direct invocation (POST /api/tools/{name}/invoke) without HTTP: the gates of SPEC.md in order —
// identifier rule (401), surface enabled and role (403, undistinguished), per-caller concurrency (429),
// catalog lookup (404, undistinguished), request checks (400), the governor (403), the tool — all
// under one deadline (504) that covers authorization and the data-classification check too.
import type { Principal } from '../platform/auth/index.js';
import { isInvocationIdentifier } from '../platform/auth/index.js';
import type { DirectToolInvocationConfig, EnvelopesConfig } from '../platform/config/types.js';
import { resolveEnvelope, type ResolvedEnvelope } from '../platform/envelope/index.js';
import { ProblemError } from '../platform/problems/index.js';
import { rateLimitedProblem, type SharedSlots } from '../platform/rate-limit/index.js';
import { redactText, redactThenTruncate } from '../platform/redaction/index.js';
import type { Clock } from '../platform/clock/index.js';
import type { GovernedCall, ToolGovernor } from './governor.js';
import { DeadlineExceeded, InvocationDeadline, type OnClientGone } from './invocation-deadline.js';
import type { ParameterValidator } from './parameter-validator.js';
import type { ToolRegistry } from './registry.js';
import type { Tool } from './tool.js';
import type { ToolInvocationRequest, ToolInvocationResponse } from './schemas.js';

export const INVOKE_ROLE = 'Harness.Tools.Invoke';
export const INVOKE_FORBIDDEN_DETAIL = 'Direct tool invocation is not permitted for this caller.';
export const TOOL_NOT_FOUND_DETAIL = 'Tool not found.';
export const MAX_ERROR_BYTES = 4096;

export interface InvokeDependencies {
  readonly registry: ToolRegistry;
  readonly governor: ToolGovernor;
  readonly validator: ParameterValidator;
  readonly envelopes: EnvelopesConfig;
  readonly config: DirectToolInvocationConfig;
  readonly slots: SharedSlots;
  readonly clock: Clock;
}

const forbidden = (): ProblemError => new ProblemError('forbidden', INVOKE_FORBIDDEN_DETAIL);

export async function invokeTool(
  deps: InvokeDependencies,
  principal: Principal,
  toolName: string,
  readRequest: () => ToolInvocationRequest,
  onClientGone: OnClientGone,
  requestedTimeoutSeconds: number | undefined,
  requestId?: string,
): Promise<ToolInvocationResponse> {
  const started = deps.clock.now();
  if (!isInvocationIdentifier(principal)) {
    throw new ProblemError('unauthorized', 'A valid bearer token is required.', { headers: { 'www-authenticate': 'Bearer' } });
  }
  if (!deps.config.enabled || !principal.roles.includes(INVOKE_ROLE)) throw forbidden();

  // An in-process slot store answers at once: no turn of the event loop for it.
  const acquired = deps.slots.tryAcquire(principal.ownerId);
  const lease = acquired instanceof Promise ? await acquired : acquired;
  if (lease === null) throw rateLimitedProblem(1, 'This caller already has the maximum number of invocations executing.');
  const timeoutMs = Math.round((requestedTimeoutSeconds ?? deps.config.defaultTimeoutSeconds) * 1000);
  const deadline = new InvocationDeadline(onClientGone, timeoutMs);
  try {
    const envelope = resolveEnvelope(deps.envelopes, principal);
    // A built-in tool is found at once; an MCP tool may wait for its server, under the deadline.
    const tool = deps.registry.grantedBuiltin(envelope, toolName) ?? (await deadline.race(deps.registry.findGranted(envelope, toolName, deadline.signal)));
    if (tool === undefined || !tool.descriptor.isDirectlyInvocable) throw new ProblemError('not-found', TOOL_NOT_FOUND_DETAIL);
    const request = readRequest();

    const operation = tool.descriptor.operations.find((op) => op.name === request.operation);
    if (operation === undefined) {
      const accepted = tool.descriptor.operations.map((op) => op.name).join(', ');
      throw new ProblemError('validation-failed', `Operation '${redactText(request.operation).slice(0, 128)}' is not declared by this tool. Accepted operations: ${accepted}.`);
    }
    const parameters = request.parameters ?? {};
    const check = deps.validator.check(operation, parameters);
    if (!check.ok) throw new ProblemError('validation-failed', redactText(check.message));

    const outcome = await deadline.race(deps.governor.execute(new DirectCall(principal.ownerId, envelope, tool, operation.name, parameters, deadline, requestId)));
    if (outcome.status === 'denied') throw forbidden();
    const name = tool.descriptor.name;
    const durationMs = Math.max(0, Math.round(deps.clock.now() - started));
    // Literal objects rather than a spread of a shared base: V8 copies a spread source on its slow path.
    if (outcome.result.ok) {
      const cut = redactThenTruncate(outcome.result.output, deps.config.maxOutputBytes);
      return { tool: name, operation: operation.name, durationMs, succeeded: true, output: cut.text, outputTruncated: cut.truncated };
    }
    const error = redactThenTruncate(outcome.result.error, MAX_ERROR_BYTES).text;
    return { tool: name, operation: operation.name, durationMs, succeeded: false, error, outputTruncated: false };
  } catch (error) {
    if (error instanceof DeadlineExceeded || (deadline.expired && !(error instanceof ProblemError))) {
      throw new ProblemError('deadline-exceeded', `The invocation did not finish within ${timeoutMs / 1000} s.`);
    }
    throw error;
  } finally {
    deadline.dispose();
    lease.release();
  }
}

/** A direct invocation as the governor sees it: its AbortSignal is built only if read (a clock call never does). */
class DirectCall implements GovernedCall {
  readonly surface = 'direct';
  readonly #deadline: InvocationDeadline;

  constructor(
    readonly ownerId: string,
    readonly envelope: ResolvedEnvelope,
    readonly tool: Tool,
    readonly operation: string,
    readonly parameters: Readonly<Record<string, unknown>>,
    deadline: InvocationDeadline,
    readonly requestId: string | undefined,
  ) {
    this.#deadline = deadline;
  }

  get signal(): AbortSignal {
    return this.#deadline.signal;
  }

  cancelled(): boolean {
    return this.#deadline.aborted;
  }
}
