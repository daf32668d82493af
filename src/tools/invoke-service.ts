// Direct invocation (POST /api/tools/{name}/invoke, and `tools/call` on the MCP gateway) without HTTP:
// the gates of SPEC.md in order —
// identifier rule (401), surface enabled and role (403, undistinguished, the access policy's),
// per-caller concurrency (429) — then the one governed call under one deadline (504) that covers the
// tool lookup, authorization and the data-classification check as well as the tool. The call's
// outcome maps to the answer: not granted or not directly invocable 404, refused by governance 403,
// a malformed body or refused operation or parameters 400, a tool whose waiting line is full 429 (the
// call was refused at once, never queued), the tool's verdict 200.
import type { AccessPolicy } from '../platform/access/index.js';
import type { Principal } from '../platform/auth/index.js';
import { isInvocationIdentifier } from '../platform/auth/index.js';
import type { DirectToolInvocationConfig } from '../platform/config/types.js';
import type { ResolvedEnvelope } from '../platform/envelope/index.js';
import { ProblemError } from '../platform/problems/index.js';
import { rateLimitedProblem, type SharedSlots } from '../platform/rate-limit/index.js';
import { redactText, redactThenTruncate } from '../platform/redaction/index.js';
import type { Clock } from '../platform/clock/index.js';
import { INVOKE_FORBIDDEN_DETAIL } from '../platform/access/index.js';
import type { GovernedCallRequest, GovernedCalls, ToolInput } from './governed-call.js';
import { DeadlineExceeded, InvocationDeadline, type OnClientGone } from './invocation-deadline.js';
import type { ToolInvocationRequest, ToolInvocationResponse } from './schemas.js';

export const TOOL_NOT_FOUND_DETAIL = 'Tool not found.';
export const MAX_ERROR_BYTES = 4096;
export const TOOL_BUSY_DETAIL = 'The tool has too many calls waiting. Retry after 1 second.';

export interface InvokeDependencies {
  readonly calls: GovernedCalls;
  readonly access: AccessPolicy;
  readonly config: DirectToolInvocationConfig;
  readonly slots: SharedSlots;
  readonly clock: Clock;
}

/** One direct invocation as a surface asks for it. */
export interface Invocation {
  /** `direct` (POST …/invoke) or `mcp` (the gateway's tools/call); the audit line and metrics say which. */
  readonly surface: 'direct' | 'mcp';
  readonly principal: Principal;
  readonly toolName: string;
  /** The operation and parameters, read (and validated, throwing its 400) once the tool is found. */
  readonly read: () => ToolInvocationRequest;
  readonly onClientGone: OnClientGone;
  readonly timeoutSeconds?: number | undefined;
  readonly requestId?: string | undefined;
  /** Whether this surface is switched on (off: the undistinguished 403); default DirectToolInvocation:Enabled. */
  readonly surfaceEnabled?: boolean;
}

export async function invokeTool(deps: InvokeDependencies, invocation: Invocation): Promise<ToolInvocationResponse> {
  const started = deps.clock.now();
  const { principal } = invocation;
  if (!isInvocationIdentifier(principal)) {
    throw new ProblemError('unauthorized', 'A valid bearer token is required.', { headers: { 'www-authenticate': 'Bearer' } });
  }
  const envelope = deps.access.authorize(principal, 'tools.invoke', { surfaceEnabled: invocation.surfaceEnabled ?? deps.config.enabled });

  // An in-process slot store answers at once: no turn of the event loop for it.
  const lease = deps.slots.answersAtOnce ? deps.slots.tryAcquireNow(principal.ownerId) : await deps.slots.tryAcquire(principal.ownerId);
  if (lease === null) throw rateLimitedProblem(1, 'This caller already has the maximum number of invocations executing.');
  const timeoutMs = Math.round((invocation.timeoutSeconds ?? deps.config.defaultTimeoutSeconds) * 1000);
  const deadline = new InvocationDeadline(invocation.onClientGone, timeoutMs);
  try {
    const outcome = await deadline.race(deps.calls.call(new DirectCall(invocation, envelope, deadline)));
    switch (outcome.status) {
      case 'denied':
        // Not granted (or not directly invocable) reads like nonexistent; any other refusal is the 403.
        if (outcome.denial === 'not-granted') throw new ProblemError('not-found', TOOL_NOT_FOUND_DETAIL);
        throw new ProblemError('forbidden', INVOKE_FORBIDDEN_DETAIL);
      case 'rejected':
      case 'expired':
      case 'parked':
        // A direct call has no supervisor, so no person ever decides it: a call that needs one is denied above.
        throw new ProblemError('forbidden', INVOKE_FORBIDDEN_DETAIL);
      case 'refused': {
        const refusal = outcome.refusal;
        if (refusal.kind === 'invalid-parameters') throw new ProblemError('validation-failed', redactText(refusal.message));
        const asked = redactText(refusal.asked).slice(0, 128);
        throw new ProblemError('validation-failed', `Operation '${asked}' is not declared by this tool. Accepted operations: ${refusal.accepted.join(', ')}.`);
      }
      case 'succeeded': {
        const durationMs = Math.max(0, Math.round(deps.clock.now() - started));
        const cut = redactThenTruncate(outcome.output, deps.config.maxOutputBytes);
        return { tool: outcome.tool.descriptor.name, operation: outcome.operation, durationMs, succeeded: true, output: cut.text, outputTruncated: cut.truncated };
      }
      case 'failed': {
        if (outcome.busy === true) throw rateLimitedProblem(1, TOOL_BUSY_DETAIL);
        const durationMs = Math.max(0, Math.round(deps.clock.now() - started));
        const error = redactThenTruncate(outcome.error, MAX_ERROR_BYTES).text;
        return { tool: outcome.tool.descriptor.name, operation: outcome.operation, durationMs, succeeded: false, error, outputTruncated: false };
      }
    }
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

/** A direct invocation as the governed call sees it: its body read once the tool is found, its AbortSignal built only if read. */
class DirectCall implements GovernedCallRequest {
  readonly surface: Invocation['surface'];
  readonly ownerId: string;
  readonly toolName: string;
  readonly requestId: string | undefined;
  readonly #read: () => ToolInvocationRequest;
  readonly #deadline: InvocationDeadline;
  #input: ToolInput | undefined;

  constructor(
    invocation: Invocation,
    readonly envelope: ResolvedEnvelope,
    deadline: InvocationDeadline,
  ) {
    this.surface = invocation.surface;
    this.ownerId = invocation.principal.ownerId;
    this.toolName = invocation.toolName;
    this.requestId = invocation.requestId;
    this.#read = invocation.read;
    this.#deadline = deadline;
  }

  input(): ToolInput {
    if (this.#input === undefined) {
      const body = this.#read();
      this.#input = { operation: body.operation, parameters: body.parameters ?? {} };
    }
    return this.#input;
  }

  get signal(): AbortSignal {
    return this.#deadline.signal;
  }

  cancelled(): boolean {
    return this.#deadline.aborted;
  }
}
