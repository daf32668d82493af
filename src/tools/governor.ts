// The one tool-call governor, used by bundle runs, workflow runs, evals and direct invocation alike.
// Gates, in order: the tool is in the effective set; the ceiling is Autonomous (fail-closed); the
// data-classification check. Then it runs the tool, one call at a time per owner when the tool is not
// concurrency-safe. Denials have no override. Every decision is logged without the parameters (the
// audit event `tool.call.decided`), counted by tool, surface and outcome, and with tracing on is an
// `execute_tool {tool}` span carrying the decision.
import { decideExecution, type EffectiveEnvelope, type ResolvedEnvelope } from '../platform/envelope/index.js';
import type { ServiceMetrics } from '../platform/metrics/index.js';
import { containsSecret } from '../platform/redaction/index.js';
import { TRACING_DISABLED, type Span, type Tracing } from '../platform/tracing/index.js';
import { GovernorDecisionLine } from './governor-decision-line.js';
import { DeadlineExceeded } from './invocation-deadline.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { Tool, ToolCallContext, ToolResult } from './tool.js';
import { ToolCallMetrics } from './tool-call-metrics.js';
import { promiseOf } from '../platform/promise/index.js';

export type GovernedSurface = 'direct' | 'bundle' | 'workflow' | 'eval';

export interface GovernedCall {
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly tool: Tool;
  readonly operation: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  /**
   * Whether the call is already cancelled, answered without reading `signal` (a direct invocation
   * builds its AbortSignal only when read); default `signal.aborted`.
   */
  readonly cancelled?: () => boolean;
  readonly surface: GovernedSurface;
  /** The model's id for this call (gen_ai.tool.call.id on the span), when a model made it. */
  readonly callId?: string;
  /** The HTTP request the call is part of (direct invocation), for the audit line. */
  readonly requestId?: string | undefined;
}

export type GovernorDenial = 'not-granted' | 'autonomy' | 'data-classification';

export type GovernorVerdict = { readonly allowed: true } | { readonly allowed: false; readonly denial: GovernorDenial; readonly reason: string };

export type GovernedOutcome =
  | { readonly status: 'denied'; readonly denial: GovernorDenial; readonly reason: string }
  | { readonly status: 'completed'; readonly result: ToolResult };

export interface GovernorLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export const TOOL_FAILURE_MESSAGE = 'The tool failed.';

export interface ToolGovernorOptions {
  readonly log: GovernorLog;
  readonly metrics?: ServiceMetrics;
  readonly tracing?: Tracing;
  readonly now?: () => number;
}

export class ToolGovernor {
  readonly #log: GovernorLog;
  readonly #serial = new KeyedMutex();
  readonly #metrics: ToolCallMetrics | undefined;
  readonly #tracing: Tracing;
  readonly #now: () => number;

  constructor(options: ToolGovernorOptions) {
    this.#log = options.log;
    this.#metrics = options.metrics?.enabled === true ? new ToolCallMetrics(options.metrics) : undefined;
    this.#tracing = options.tracing ?? TRACING_DISABLED;
    this.#now = options.now ?? (() => performance.now());
  }

  authorize(call: GovernedCall): GovernorVerdict {
    const name = call.tool.descriptor.name;
    const decision = decideExecution(call.envelope, name);
    let verdict: GovernorVerdict;
    if (!decision.allowed) {
      const denial: GovernorDenial = decision.reason === 'autonomy-below-autonomous' ? 'autonomy' : 'not-granted';
      verdict = { allowed: false, denial, reason: decision.rule };
    } else if ((!call.tool.descriptor.isReadOnly || call.tool.descriptor.reachesNetwork) && containsSecret(call.parameters)) {
      verdict = {
        allowed: false,
        denial: 'data-classification',
        reason: 'denied: the parameters carry a detected secret and the tool writes or reaches the network',
      };
    } else {
      verdict = { allowed: true };
    }
    const line = new GovernorDecisionLine(
      call.ownerId,
      name,
      call.operation,
      call.surface,
      verdict.allowed ? 'allowed' : 'denied',
      verdict.allowed ? decision.rule : verdict.reason,
      verdict.allowed ? null : verdict.denial,
      'source' in call.envelope ? call.envelope.source : call.envelope.grant.source,
      call.requestId ?? null,
    );
    // An operation the tool does not declare is caller or model text: logged as a plain (redacted) object.
    const declared = call.tool.descriptor.operations.some((op) => op.name === call.operation);
    this.#log.info(declared ? line : { ...line }, 'tool call governed');
    return verdict;
  }

  /** Authorizes and, when allowed, runs the call. A throwing tool becomes a generic failure. */
  execute(call: GovernedCall): Promise<GovernedOutcome> {
    if (!this.#tracing.enabled) return promiseOf(() => this.#execute(call, undefined));
    const span = this.#tracing.startSpan(`execute_tool ${call.tool.descriptor.name}`, {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.tool.descriptor.name,
        'gen_ai.tool.type': 'function',
        ...(call.callId === undefined ? {} : { 'gen_ai.tool.call.id': call.callId }),
        'portcullis.tool.operation': call.operation,
        'portcullis.tool.surface': call.surface,
      },
    });
    return this.#tracing.withSpan(span, () => promiseOf(() => this.#execute(call, span))).finally(() => span.end());
  }

  // Promise chains, not nested async functions: a workflow step is one governed call, and each async
  // layer costs its own promises and microtask turns on every step of every run.
  // Called through promiseOf: a throw from authorize reaches the caller as a rejection.
  #execute(call: GovernedCall, span: Span | undefined): Promise<GovernedOutcome> {
    const verdict = this.authorize(call);
    span?.setAttributes({ 'portcullis.governance.decision': verdict.allowed ? 'allowed' : 'denied', 'portcullis.governance.rule': verdict.allowed ? 'granted' : verdict.reason });
    if (!verdict.allowed) {
      span?.setAttribute('portcullis.governance.denial', verdict.denial);
      this.#metrics?.denied(call.tool, call.surface, verdict.denial);
      return Promise.resolve({ status: 'denied', denial: verdict.denial, reason: verdict.reason });
    }
    const started = this.#metrics === undefined ? 0 : this.#now();
    return this.#run(call).then(
      (result): GovernedOutcome => {
        this.#completed(call, result.ok ? 'succeeded' : call.signal.aborted ? (call.signal.reason instanceof DeadlineExceeded ? 'timed_out' : 'cancelled') : 'failed', started, span);
        return { status: 'completed', result };
      },
      (error: unknown) => {
        this.#completed(call, call.signal.reason instanceof DeadlineExceeded ? 'timed_out' : 'cancelled', started, span);
        throw error;
      },
    );
  }

  #completed(call: GovernedCall, outcome: 'succeeded' | 'failed' | 'timed_out' | 'cancelled', started: number, span: Span | undefined): void {
    this.#metrics?.completed(call.tool, call.surface, outcome, (this.#now() - started) / 1000);
    if (span !== undefined && outcome !== 'succeeded') span.setAttribute('error.type', outcome);
  }

  #run(call: GovernedCall): Promise<ToolResult> {
    if (call.tool.descriptor.isConcurrencySafe) return this.#invoke(call);
    return this.#serial.run(`${call.ownerId}\u0000${call.tool.descriptor.name.toLowerCase()}`, call.signal, () => this.#invoke(call));
  }

  /**
   * The tool's result; a tool that throws (not aborted) becomes the generic failure, logged here. A
   * call cancelled before it starts is not started: it rejects with the abort reason, as a tool
   * aborted while it ran does. The tool's context reads the signal only when the tool does.
   */
  #invoke(call: GovernedCall): Promise<ToolResult> {
    if (call.cancelled === undefined ? call.signal.aborted : call.cancelled()) return Promise.reject(call.signal.reason as Error);
    return promiseOf(() => call.tool.invoke(call.operation, call.parameters, new CallContext(call))).catch((error: unknown): ToolResult => {
      if (call.signal.aborted) throw error;
      this.#log.warn({ err: error, tool: call.tool.descriptor.name, operation: call.operation }, 'tool threw');
      return { ok: false, error: TOOL_FAILURE_MESSAGE };
    });
  }
}

/** A tool's view of a governed call: the signal is read from the call only when the tool reads it. */
class CallContext implements ToolCallContext {
  readonly ownerId: string;
  readonly #call: GovernedCall;

  constructor(call: GovernedCall) {
    this.ownerId = call.ownerId;
    this.#call = call;
  }

  get signal(): AbortSignal {
    return this.#call.signal;
  }
}
