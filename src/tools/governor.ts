// The one tool-call governor, used by bundle runs, workflow runs, evals and direct invocation alike.
// Gates, in order: the tool is in the effective set; the ceiling is Autonomous (fail-closed); the
// data-classification check. Then it runs the tool, one call at a time per owner when the tool is not
// concurrency-safe. Denials have no override. Every decision is logged without the parameters.
import { decideExecution, type EffectiveEnvelope, type ResolvedEnvelope } from '../platform/envelope/index.js';
import { containsSecret } from '../platform/redaction/index.js';
import { GovernorDecisionLine } from './governor-decision-line.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { Tool, ToolResult } from './tool.js';

export type GovernedSurface = 'direct' | 'bundle' | 'workflow' | 'eval';

export interface GovernedCall {
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly tool: Tool;
  readonly operation: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  readonly surface: GovernedSurface;
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

export class ToolGovernor {
  readonly #log: GovernorLog;
  readonly #serial = new KeyedMutex();

  constructor(options: { log: GovernorLog }) {
    this.#log = options.log;
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
    );
    // An operation the tool does not declare is caller or model text: logged as a plain (redacted) object.
    const declared = call.tool.descriptor.operations.some((op) => op.name === call.operation);
    this.#log.info(declared ? line : { ...line }, 'tool call governed');
    return verdict;
  }

  /** Authorizes and, when allowed, runs the call. A throwing tool becomes a generic failure. */
  async execute(call: GovernedCall): Promise<GovernedOutcome> {
    const verdict = this.authorize(call);
    if (!verdict.allowed) return { status: 'denied', denial: verdict.denial, reason: verdict.reason };
    const run = async (): Promise<ToolResult> => {
      try {
        return await call.tool.invoke(call.operation, call.parameters, { ownerId: call.ownerId, signal: call.signal });
      } catch (error) {
        if (call.signal.aborted) throw error;
        this.#log.warn({ err: error, tool: call.tool.descriptor.name, operation: call.operation }, 'tool threw');
        return { ok: false, error: TOOL_FAILURE_MESSAGE };
      }
    };
    const result = call.tool.descriptor.isConcurrencySafe
      ? await run()
      : await this.#serial.run(`${call.ownerId}\u0000${call.tool.descriptor.name.toLowerCase()}`, call.signal, run);
    return { status: 'completed', result };
  }
}
