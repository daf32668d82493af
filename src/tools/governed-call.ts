// The one governed tool call, used by direct invocation, bundle runs, workflow steps and eval runs
// alike: look the tool up in the caller's envelope → the policy (autonomy ceiling, data
// classification) → the call's operation and parameters → run it (one call at a time per owner for
// a tool that is not concurrency-safe) → an outcome: succeeded, failed, denied, refused, or — for a
// call a person decides — rejected, expired or parked (a closed union each surface switches on). Every
// call, whatever its surface and outcome, writes exactly one `tool.call.decided` audit line (at the
// policy decision; a tool that is not granted is such a decision too) and one metric sample; with
// tracing on, a found tool is an `execute_tool {tool}` span. Each surface maps the outcome to its
// own answer (a 403, a failed step, a message the model is told); none decides anything itself.
// Denials have no override. A call the envelope lets run only once a person approves it (DESIGN.md
// §13) is asked of the surface's supervisor, after its arguments are checked; its one line is written
// with the person's verdict. A supervisor that cannot wait in place (a bundle run, which its run engine
// parks) answers `parked`: nothing ran and no line is written until the call is made again with the
// verdict. A surface with no supervisor (direct invocation, eval runs) cannot wait for a person: such
// a call is denied (`approval`).
import { performance } from 'node:perf_hooks';
import { decideExecution, type ApprovalRule, type EffectiveEnvelope, type ExecutionDecision, type ResolvedEnvelope } from '../platform/envelope/index.js';
import type { ServiceMetrics } from '../platform/metrics/index.js';
import { promiseOf } from '../platform/promise/index.js';
import { redactText } from '../platform/redaction/index.js';
import { combinedDecision } from './combined-decision.js';
import { TRACING_DISABLED, type Span, type Tracing } from '../platform/tracing/index.js';
import { untilAborted } from '../platform/abort/index.js';
import { GovernorDecisionLine } from './governor-decision-line.js';
import { DeadlineExceeded } from './invocation-deadline.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { ParameterValidator } from './parameter-validator.js';
import type { ToolRegistry } from './registry.js';
import type { PolicyCall, PolicyGate, PolicyJudgement } from './policy-gate.js';
import type { ConversationScope, Tool, ToolCallContext, ToolOperation, ToolResult } from './tool.js';
import { ToolCallMetrics } from './tool-call-metrics.js';

export type GovernedSurface = 'direct' | 'mcp' | 'bundle' | 'workflow' | 'eval';
export type GovernorDenial = 'not-granted' | 'policy' | 'autonomy' | 'data-classification' | 'approval';

/** What a model or step is told of a call a person rejected, or that expired undecided (DESIGN.md §13). */
export const TOOL_CALL_REJECTED = 'Tool call rejected by an approver.';

/** A call waiting for a person: what the approval shows (the parameters are redacted by the desk). */
export interface ApprovalAsk {
  readonly tool: Tool;
  readonly operation: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly rule: ApprovalRule;
  /** The version of the policy set whose `ask` this is (DESIGN.md §18), when a policy asked. */
  readonly policyVersion?: string;
}

/** The person's verdict: approved (by whom, as the audit line says it), or rejected or expired. */
export type ApprovalVerdict = { readonly approved: true; readonly by: string } | { readonly approved: false; readonly expired: boolean };

/**
 * The call waits for a person and its run stops here (the approval `parked` is stored). No decision
 * line is written yet: it is, once, when the call is made again with the verdict.
 */
export interface CallParked {
  readonly parked: string;
}

/**
 * Where a surface that can wait asks a person. `ask` resolves with the verdict once there is one, or
 * — a surface whose whole run waits instead (a bundle run, parked by the run engine) — with `parked`;
 * the call is then made again with the stored verdict when the run resumes.
 */
export interface Supervisor {
  ask(ask: ApprovalAsk): Promise<ApprovalVerdict | CallParked>;
}

export const TOOL_FAILURE_MESSAGE = 'The tool failed.';
/** The longest tool name or operation, as asked, that an audit line repeats. */
const MAX_ASKED_NAME = 128;

export interface ToolInput {
  readonly operation: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface GovernedCallRequest {
  readonly surface: GovernedSurface;
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  /** The tool's name as asked (caller or model text). */
  readonly toolName: string;
  /**
   * The operation and parameters, read once the tool is found (direct invocation validates its body
   * only then, so an unknown tool is a 404 whatever the body). A throw propagates to the caller.
   */
  input(): ToolInput;
  /** Aborted on deadline, cancellation or shutdown; read only when something needs it. */
  readonly signal: AbortSignal;
  /** Whether the call is already cancelled, answered without reading `signal`; default `signal.aborted`. */
  cancelled?(): boolean;
  /** The HTTP request the call is part of (direct invocation), for the audit line. */
  readonly requestId?: string | null;
  /** The model's id for this call (gen_ai.tool.call.id on the span), when a model made it. */
  readonly callId?: string;
  /** The conversation that made the call, when an agent did (a tool that runs a sub-agent needs it). */
  readonly conversation?: ConversationScope;
  /** Where a person is asked when the call needs approval; absent: the surface cannot wait, and it is denied. */
  readonly supervisor?: Supervisor;
  /** The bundle's AGENT.md `require-approval:` (tightens only), when a bundle makes the call. */
  readonly requireApproval?: readonly string[] | 'all' | null;
  /** The run the call belongs to (its job id): what its policies' run counters count; absent outside runs. */
  readonly runId?: string;
  /** The bundle's AGENT.md id, when a bundle's agent makes the call (policies read it). */
  readonly bundleId?: string;
}

/** A denial decided before any call: who asked, under which envelope, for which tool and operation (as asked). */
export interface NotGrantedBeforeCall {
  readonly surface: GovernedSurface;
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly toolName: string;
  readonly operation: string;
  readonly requestId?: string | null;
}

const NOT_GRANTED_REASON = 'denied: not a tool the envelope grants';

/** Why a call was refused before it ran: its operation or parameters. Each surface words it. */
export type CallRefusal =
  | { readonly kind: 'undeclared-operation'; readonly asked: string; readonly accepted: readonly string[] }
  | { readonly kind: 'invalid-parameters'; readonly message: string };

export type GovernedCallOutcome =
  /** `value`: the output's JSON value when the tool gave it (frozen; ToolResult.value), else undefined. */
  | { readonly status: 'succeeded'; readonly tool: Tool; readonly operation: string; readonly output: string; readonly value: unknown }
  /** `busy`: the tool refused the call at once, nothing run, because too much work waits for it. */
  | { readonly status: 'failed'; readonly tool: Tool; readonly operation: string; readonly error: string; readonly busy?: true }
  | { readonly status: 'denied'; readonly denial: GovernorDenial; readonly reason: string }
  | { readonly status: 'refused'; readonly tool: Tool; readonly refusal: CallRefusal }
  /** A person rejected the call (audited as an `approval` denial); nothing ran. */
  | { readonly status: 'rejected'; readonly tool: Tool; readonly operation: string }
  /** The call's approval expired undecided (audited as an `approval` denial); nothing ran. */
  | { readonly status: 'expired'; readonly tool: Tool; readonly operation: string }
  /** The call waits for the person deciding approval `approvalId`; nothing ran and nothing was audited yet. */
  | { readonly status: 'parked'; readonly approvalId: string };

/** A denial as the governor decides it; `asked`, when a person's verdict denied it. */
interface Denial {
  readonly denial: GovernorDenial;
  readonly reason: string;
  readonly asked?: 'rejected' | 'expired';
}

/** Runs a granted, checked call in place of the tool's own invoke (a workflow's retrieval plan reads the index whole). */
export type CallExecution = (tool: Tool, input: ToolInput, context: ToolCallContext) => Promise<ToolResult>;

export interface GovernedCallsOptions {
  readonly registry: ToolRegistry;
  readonly validator: ParameterValidator;
  readonly log: { info(object: object, message: string): void; warn(object: object, message: string): void };
  readonly metrics?: ServiceMetrics;
  readonly tracing?: Tracing;
  readonly now?: () => number;
  /** AppConfig:AI:Approvals:Enabled: Supervised asks a person instead of refusing. */
  readonly approvalsEnabled?: boolean;
  /** The policy layer (DESIGN.md §18); absent: none is configured, and no call waits on one. */
  readonly policies?: PolicyGate;
}

export class GovernedCalls {
  readonly #registry: ToolRegistry;
  readonly #validator: ParameterValidator;
  readonly #log: GovernedCallsOptions['log'];
  readonly #serial = new KeyedMutex();
  readonly #metrics: ToolCallMetrics | undefined;
  readonly #tracing: Tracing;
  readonly #now: () => number;
  readonly #approvalsEnabled: boolean;
  readonly #policies: PolicyGate | undefined;

  constructor(options: GovernedCallsOptions) {
    this.#approvalsEnabled = options.approvalsEnabled === true;
    this.#policies = options.policies;
    this.#registry = options.registry;
    this.#validator = options.validator;
    this.#log = options.log;
    this.#metrics = options.metrics?.enabled === true ? new ToolCallMetrics(options.metrics) : undefined;
    this.#tracing = options.tracing ?? TRACING_DISABLED;
    this.#now = options.now ?? (() => performance.now());
  }

  /** The tool registry the calls are looked up in. */
  get registry(): ToolRegistry {
    return this.#registry;
  }

  /** Governs and, when allowed and well-formed, runs one call. A throwing tool becomes the generic failure. */
  call(request: GovernedCallRequest, execution?: CallExecution): Promise<GovernedCallOutcome> {
    // A granted built-in is found at once (a direct clock call waits on no promise for it).
    const builtin = this.#registry.grantedBuiltin(request.envelope, request.toolName);
    if (builtin !== undefined) return promiseOf(() => this.#found(request, this.#offered(request, builtin), execution));
    return untilAborted(this.#registry.findGranted(request.envelope, request.toolName, request.signal), request.signal).then((tool) =>
      this.#found(request, tool === undefined ? undefined : this.#offered(request, tool), execution),
    );
  }

  /** Direct invocation (over HTTP or the MCP gateway) offers only directly invocable tools: any other is not there for it. */
  #offered(request: GovernedCallRequest, tool: Tool): Tool | undefined {
    return (request.surface === 'direct' || request.surface === 'mcp') && !tool.descriptor.isDirectlyInvocable ? undefined : tool;
  }

  #found(request: GovernedCallRequest, tool: Tool | undefined, execution: CallExecution | undefined): Promise<GovernedCallOutcome> {
    if (tool === undefined) return Promise.resolve(this.#notGranted(request));
    if (!this.#tracing.enabled) return this.#decide(request, tool, undefined, execution);
    const span = this.#tracing.startSpan(`execute_tool ${tool.descriptor.name}`, {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': tool.descriptor.name,
        'gen_ai.tool.type': 'function',
        ...(request.callId === undefined ? {} : { 'gen_ai.tool.call.id': request.callId }),
        'portcullis.tool.surface': request.surface,
      },
    });
    return this.#tracing.withSpan(span, () => this.#decide(request, tool, span, execution)).finally(() => span.end());
  }

  /**
   * A tool the envelope does not grant, refused before any call could be made (a workflow run refused
   * at start because a step names it): the same one line and metric sample a call of it would write.
   */
  notGrantedBeforeCall(request: NotGrantedBeforeCall): void {
    this.#notGrantedDecision(request, request.operation);
  }

  /** Not in the envelope (or not there at all, which reads the same): a denial like any other. */
  #notGranted(request: GovernedCallRequest): GovernedCallOutcome {
    let operation = '';
    try {
      operation = request.input().operation;
    } catch {
      // An unreadable request names no operation; the denial stands.
    }
    return this.#notGrantedDecision(request, operation);
  }

  #notGrantedDecision(request: NotGrantedBeforeCall | GovernedCallRequest, operation: string): GovernedCallOutcome {
    const reason = NOT_GRANTED_REASON;
    // Both names are caller or model text: bounded, and logged as a plain object so they are redacted.
    const line = new GovernorDecisionLine(request.ownerId, asked(request.toolName), asked(operation), request.surface, 'denied', reason, 'not-granted', sourceOf(request.envelope), request.requestId ?? null);
    this.#log.info({ ...line }, 'tool call governed');
    const offered = this.#registry.lookupOffline(request.toolName);
    this.#metrics?.denied(typeof offered === 'object' ? offered.descriptor.name : null, request.surface, 'not-granted');
    return { status: 'denied', denial: 'not-granted', reason };
  }

  // Promise chains, not nested async functions: a workflow step is one governed call, and each async
  // layer costs its own promises and microtask turns on every step of every run.
  #decide(request: GovernedCallRequest, tool: Tool, span: Span | undefined, execution: CallExecution | undefined): Promise<GovernedCallOutcome> {
    const input = request.input();
    const decision = decideExecution(
      request.envelope,
      tool.descriptor.name,
      this.#approvalsEnabled ? { approvalsEnabled: true, riskTier: tool.descriptor.riskTier, requireApproval: request.requireApproval ?? null } : undefined,
    );
    const operation = tool.descriptor.operations.find((op) => op.name === input.operation);
    // A granted call of a declared operation is judged by the policies too (DESIGN.md §18); with no
    // policy layer nothing is awaited for it.
    const policies = this.#policies;
    const granted = decision.allowed || decision.reason === 'autonomy-below-autonomous';
    if (policies === undefined || !granted || operation === undefined) return this.#governed(request, tool, input, operation, decision, null, span, execution);
    const call = policyCall(request, tool, input);
    return policies.judge(call).then((policy) => this.#governed(request, tool, input, operation, decision, policy, span, execution, call));
  }

  /** Acts on the combined decision (combined-decision.ts): denied, asked of a person, or checked and run. */
  #governed(
    request: GovernedCallRequest,
    tool: Tool,
    input: ToolInput,
    operation: ToolOperation | undefined,
    decision: ExecutionDecision,
    policy: PolicyJudgement | null,
    span: Span | undefined,
    execution: CallExecution | undefined,
    call?: PolicyCall,
  ): Promise<GovernedCallOutcome> {
    const combined = combinedDecision({
      decision,
      policy,
      tool: tool.descriptor,
      parameters: input.parameters,
      surface: request.surface,
      canWait: request.supervisor !== undefined && this.#approvalsEnabled,
    });
    const denial: Denial | null = combined.verdict === 'denied' ? { denial: combined.denial, reason: combined.reason } : null;
    // The arguments of an allowed call are checked before its one line is written, which says so.
    const refusal = denial === null ? this.#check(tool, operation, input) : null;
    const ran = denial === null && refusal === null ? call : undefined;
    if (combined.verdict === 'ask' && refusal === null && request.supervisor !== undefined) {
      // A person decides; the line is written with their verdict.
      const { rule } = combined;
      const ask: ApprovalAsk =
        combined.policyVersion === undefined
          ? { tool, operation: input.operation, parameters: input.parameters, rule: combined.approval }
          : { tool, operation: input.operation, parameters: input.parameters, rule: combined.approval, policyVersion: combined.policyVersion };
      return request.supervisor.ask(ask).then((verdict): Promise<GovernedCallOutcome> => {
        if ('parked' in verdict) return Promise.resolve({ status: 'parked', approvalId: verdict.parked });
        if (verdict.approved) return this.#decided(request, tool, input, operation, span, execution, `${rule}; approved by ${verdict.by}`, null, null, policy, ran);
        const reason = verdict.expired ? 'denied: the approval expired undecided' : 'denied: rejected by an approver';
        return this.#decided(request, tool, input, operation, span, execution, reason, { denial: 'approval', reason: TOOL_CALL_REJECTED, asked: verdict.expired ? 'expired' : 'rejected' }, null, policy);
      });
    }
    return this.#decided(request, tool, input, operation, span, execution, combined.verdict === 'denied' ? combined.reason : combined.rule, denial, refusal, policy, ran);
  }

  /** Writes the call's one line and answers it: denied, refused, or run. */
  #decided(
    request: GovernedCallRequest,
    tool: Tool,
    input: ToolInput,
    operation: Tool['descriptor']['operations'][number] | undefined,
    span: Span | undefined,
    execution: CallExecution | undefined,
    rule: string,
    denial: Denial | null,
    refusal: CallRefusal | null,
    policy: PolicyJudgement | null = null,
    ran?: PolicyCall,
  ): Promise<GovernedCallOutcome> {
    const name = tool.descriptor.name;
    const line = new GovernorDecisionLine(
      request.ownerId,
      name,
      input.operation,
      request.surface,
      denial === null ? 'allowed' : 'denied',
      rule,
      denial?.denial ?? null,
      sourceOf(request.envelope),
      request.requestId ?? null,
      refusal?.kind ?? null,
      policy === null ? null : policyOnLine(policy),
    );
    // An operation the tool does not declare is caller or model text: logged as a plain (redacted) object.
    this.#log.info(operation !== undefined ? line : { ...line, operation: asked(input.operation) }, 'tool call governed');
    span?.setAttributes({ 'portcullis.tool.operation': operation?.name ?? '', 'portcullis.governance.decision': denial === null ? 'allowed' : 'denied' });
    if (denial !== null) {
      span?.setAttribute('portcullis.governance.denial', denial.denial);
      this.#metrics?.denied(name, request.surface, denial.denial);
      if (denial.asked !== undefined) return Promise.resolve({ status: denial.asked, tool, operation: input.operation });
      return Promise.resolve({ status: 'denied', denial: denial.denial, reason: denial.reason });
    }
    if (refusal !== null) {
      this.#metrics?.refused(tool, request.surface);
      span?.setAttribute('error.type', 'refused');
      return Promise.resolve({ status: 'refused', tool, refusal });
    }
    const started = this.#metrics === undefined ? 0 : this.#now();
    const op = input.operation;
    // With policies, a call that runs counts in its run's counters before it runs (the next call reads them).
    const policies = this.#policies;
    // A tool that answers at once is answered at once: no promise of the tool's, no turn to wait for it.
    const now = ran === undefined || policies === undefined ? this.#runNow(request, tool, input, execution) : undefined;
    if (now !== undefined) {
      if (now.ok) return Promise.resolve(this.#outcome(request, tool, op, now.result, started, span));
      this.#completed(request, tool, stoppedAs(request.signal) ?? 'cancelled', started, span);
      return Promise.reject(now.error);
    }
    const running = ran === undefined || policies === undefined ? this.#run(request, tool, input, execution) : policies.ran(ran).then(() => this.#run(request, tool, input, execution));
    return running.then(
      (result) => this.#outcome(request, tool, op, result, started, span),
      (error: unknown) => {
        this.#completed(request, tool, stoppedAs(request.signal) ?? 'cancelled', started, span);
        throw error;
      },
    );
  }

  /** A call that ran: its metric sample, and the outcome its result makes. */
  #outcome(request: GovernedCallRequest, tool: Tool, op: string, result: ToolResult, started: number, span: Span | undefined): GovernedCallOutcome {
    // The signal is read only for a failure: a direct invocation builds it only when read.
    this.#completed(request, tool, result.ok ? 'succeeded' : stoppedAs(request.signal) ?? 'failed', started, span);
    if (result.ok) return { status: 'succeeded', tool, operation: op, output: result.output, value: result.value };
    // A literal each way: a conditional spread costs V8's slow path on every call.
    if (result.busy === true) return { status: 'failed', tool, operation: op, error: result.error, busy: true };
    return { status: 'failed', tool, operation: op, error: result.error };
  }

  /**
   * The result of a tool that answers at once (`invokeNow`, a tool safe to run concurrently, called as
   * itself), as #invoke would give it: a throw is the generic failure, or — when the call was cancelled
   * meanwhile — its error. Undefined when the call goes the usual way: another tool, another execution,
   * or a call already cancelled (#invoke refuses it).
   */
  #runNow(request: GovernedCallRequest, tool: Tool, input: ToolInput, execution: CallExecution | undefined): { ok: true; result: ToolResult } | { ok: false; error: Error } | undefined {
    if (tool.invokeNow === undefined || execution !== undefined || !tool.descriptor.isConcurrencySafe) return undefined;
    if (request.cancelled === undefined ? request.signal.aborted : request.cancelled()) return undefined;
    try {
      return { ok: true, result: tool.invokeNow(input.operation, input.parameters, new CallContext(request)) };
    } catch (error) {
      if (request.signal.aborted) return { ok: false, error: error as Error };
      this.#log.warn({ err: error, tool: tool.descriptor.name, operation: input.operation }, 'tool threw');
      return { ok: true, result: { ok: false, error: TOOL_FAILURE_MESSAGE } };
    }
  }

  #check(tool: Tool, operation: Tool['descriptor']['operations'][number] | undefined, input: ToolInput): CallRefusal | null {
    if (operation === undefined) return { kind: 'undeclared-operation', asked: input.operation, accepted: tool.descriptor.operations.map((op) => op.name) };
    const check = this.#validator.check(operation, input.parameters);
    return check.ok ? null : { kind: 'invalid-parameters', message: check.message };
  }

  #completed(request: GovernedCallRequest, tool: Tool, outcome: 'succeeded' | 'failed' | 'timed_out' | 'cancelled', started: number, span: Span | undefined): void {
    this.#metrics?.completed(tool, request.surface, outcome, (this.#now() - started) / 1000);
    if (span !== undefined && outcome !== 'succeeded') span.setAttribute('error.type', outcome);
  }

  #run(request: GovernedCallRequest, tool: Tool, input: ToolInput, execution: CallExecution | undefined): Promise<ToolResult> {
    if (tool.descriptor.isConcurrencySafe) return this.#invoke(request, tool, input, execution);
    return this.#serial.run(`${request.ownerId}\u0000${tool.descriptor.name.toLowerCase()}`, request.signal, () => this.#invoke(request, tool, input, execution));
  }

  /**
   * The tool's result; a tool that throws (not aborted) becomes the generic failure, logged here. A
   * call cancelled before it starts is not started: it rejects with the abort reason, as a tool
   * aborted while it ran does. The tool's context reads the signal only when the tool does.
   */
  #invoke(request: GovernedCallRequest, tool: Tool, input: ToolInput, execution: CallExecution | undefined): Promise<ToolResult> {
    if (request.cancelled === undefined ? request.signal.aborted : request.cancelled()) return Promise.reject(request.signal.reason as Error);
    const context = new CallContext(request);
    const invoking = execution === undefined ? () => tool.invoke(input.operation, input.parameters, context) : () => execution(tool, input, context);
    return promiseOf(invoking).catch((error: unknown): ToolResult => {
      if (request.signal.aborted) throw error;
      this.#log.warn({ err: error, tool: tool.descriptor.name, operation: input.operation }, 'tool threw');
      return { ok: false, error: TOOL_FAILURE_MESSAGE };
    });
  }
}

/** How a call whose signal aborted counts: its deadline passed, or it was cancelled; null when not aborted. */
function stoppedAs(signal: AbortSignal): 'timed_out' | 'cancelled' | null {
  if (!signal.aborted) return null;
  return signal.reason instanceof DeadlineExceeded ? 'timed_out' : 'cancelled';
}

/** What the policy layer is asked about a call. */
function policyCall(request: GovernedCallRequest, tool: Tool, input: ToolInput): PolicyCall {
  return {
    surface: request.surface,
    ownerId: request.ownerId,
    envelope: request.envelope,
    tool,
    operation: input.operation,
    parameters: input.parameters,
    ...(request.runId === undefined ? {} : { runId: request.runId }),
    ...(request.bundleId === undefined ? {} : { bundleId: request.bundleId }),
  };
}

/** The `policy` object of the line (DESIGN.md §18): never the reason text, which may quote the call. */
function policyOnLine(policy: PolicyJudgement): { version: string; decision: string; determining: readonly string[]; errors: readonly string[]; mode: string } {
  return { version: policy.version, decision: policy.decision, determining: policy.determining, errors: policy.errors, mode: policy.mode };
}

function sourceOf(envelope: ResolvedEnvelope | EffectiveEnvelope): string {
  return 'source' in envelope ? envelope.source : envelope.grant.source;
}

/**
 * A name as asked (caller or model text), fit for a line: redacted whole, then cut to MAX_ASKED_NAME
 * (never inside a surrogate pair) and marked — so a secret straddling the cut is never half shown
 * (decision 0403). The text is bounded before it gets here (a request body, a URL, a model's turn).
 */
function asked(text: string): string {
  const redacted = redactText(text);
  if (redacted.length <= MAX_ASKED_NAME) return redacted;
  const cut = redacted.slice(0, MAX_ASKED_NAME);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** A tool's view of a governed call: the signal is read from the call only when the tool reads it. */
class CallContext implements ToolCallContext {
  readonly ownerId: string;
  readonly conversation: ConversationScope | undefined;
  readonly #request: GovernedCallRequest;

  constructor(request: GovernedCallRequest) {
    this.ownerId = request.ownerId;
    this.conversation = request.conversation;
    this.#request = request;
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }
}
