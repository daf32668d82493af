// The policy layer as the service runs it (DESIGN.md §18): the loaded set and its decider, the mode,
// and the run counters. It answers the governed call (`judge`, `ran`: the PolicyGate), the explain
// route (`explain`: the same decision for the caller themself, nothing run or counted) and the schema
// route; `reload` re-reads the files (SIGHUP) and keeps the set in force when the new one is invalid.
// The principal is whom the call's envelope was resolved for (a run keeps it with its envelope), so
// a run's calls are judged as its starter's wherever they run.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../platform/envelope/index.js';
import { parseMcpToolName } from '../platform/envelope/index.js';
import type { PolicyCall, PolicyGate, PolicyJudgement, PolicyMode } from '../tools/policy-gate.js';
import { OUTSIDE_RUNS, type RunCallCounts, type RunCounters } from '../tools/run-call-counts.js';
import type { Tool } from '../tools/tool.js';
import type { PolicySchema } from './cedar-schema-types.js';
import { PolicyDecider } from './policy-decider.js';
import type { PolicyPrincipal, PolicySurface } from './policy-request.js';
import { cedarSchemaFor, type PolicyTool } from './policy-schema.js';
import { loadPolicySet, type LoadedPolicySet, type PolicySetError, type PolicyWarning } from './policy-set.js';

/** The policy files could not be loaded: each problem as `file:line: message`. */
export class PolicyLoadError extends Error {
  override readonly name = 'PolicyLoadError';
  constructor(readonly problems: readonly PolicySetError[]) {
    super(`the policy set was refused:\n${problems.map(describeProblem).join('\n')}`);
  }
}

export function describeProblem(problem: PolicySetError): string {
  return `${problem.file}${problem.line === null ? '' : `:${problem.line}`}: ${problem.message}`;
}

export interface PolicyLayerOptions {
  readonly files: readonly string[];
  readonly cwd: string;
  readonly mode: PolicyMode;
  readonly counts: RunCallCounts;
  readonly now: () => number;
  readonly log: { info(details: object, message: string): void; warn(details: object, message: string): void };
}

/** The tool as the policy vocabulary sees it: its descriptor and its MCP server's name (else ""). */
export function policyToolOf(tool: Tool): PolicyTool {
  return { descriptor: tool.descriptor, server: parseMcpToolName(tool.descriptor.name)?.server ?? '' };
}

export class PolicyLayer implements PolicyGate {
  readonly mode: PolicyMode;
  readonly #options: PolicyLayerOptions;
  #set: LoadedPolicySet;
  #decider: PolicyDecider;

  private constructor(options: PolicyLayerOptions, set: LoadedPolicySet) {
    this.mode = options.mode;
    this.#options = options;
    this.#set = set;
    this.#decider = new PolicyDecider(set);
  }

  /** Loads and validates the files against the catalog's schema; throws PolicyLoadError naming every problem. */
  static async load(options: PolicyLayerOptions, tools: readonly Tool[]): Promise<PolicyLayer> {
    const set = await loadSet(options, cedarSchemaFor(tools.map(policyToolOf)));
    const layer = new PolicyLayer(options, set);
    layer.#logLoaded('policies loaded');
    return layer;
  }

  get version(): string {
    return this.#set.version;
  }

  /** The Cedar schema (JSON) the set was validated against. */
  get schema(): PolicySchema {
    return this.#set.schema;
  }

  async judge(call: PolicyCall): Promise<PolicyJudgement> {
    const run = call.runId === undefined ? OUTSIDE_RUNS : await this.#options.counts.read(call.ownerId, call.runId, call.tool.descriptor.name);
    return this.#decide(call.ownerId, call.envelope, call.tool, call.operation, call.parameters, call.surface, call.bundleId ?? '', run);
  }

  async ran(call: PolicyCall): Promise<void> {
    if (call.runId !== undefined) await this.#options.counts.granted(call.ownerId, call.runId, call.tool.descriptor.name);
  }

  /** The policy layer's own decision on a call, without running or counting anything (the explain route). */
  explain(ownerId: string, envelope: ResolvedEnvelope | EffectiveEnvelope, tool: Tool, operation: string, parameters: unknown, surface: PolicySurface): PolicyJudgement {
    return this.#decide(ownerId, envelope, tool, operation, parameters, surface, '', OUTSIDE_RUNS);
  }

  /** The set in force's decision, as the line and the explain route report it. */
  #decide(
    ownerId: string,
    envelope: ResolvedEnvelope | EffectiveEnvelope,
    tool: Tool,
    operation: string,
    parameters: unknown,
    surface: PolicySurface,
    bundleId: string,
    run: RunCounters,
  ): PolicyJudgement {
    const decider = this.#decider;
    const principal = principalOf(ownerId, envelope);
    const utcHour = new Date(this.#options.now()).getUTCHours();
    const decision = decider.decide({ principal, tool: policyToolOf(tool), operation, surface, bundleId, run, utcHour, arguments: parameters });
    return { version: decider.version, mode: this.mode, ...decision };
  }

  /**
   * Re-reads the files against the catalog's schema now (SIGHUP). An invalid set is refused and
   * logged, and the set in force stays; the answer says which happened.
   */
  async reload(tools: readonly Tool[]): Promise<{ readonly reloaded: true; readonly version: string } | { readonly reloaded: false; readonly problems: readonly PolicySetError[] }> {
    try {
      const set = await loadSet(this.#options, cedarSchemaFor(tools.map(policyToolOf)));
      const decider = new PolicyDecider(set);
      this.#set = set;
      this.#decider = decider;
      this.#logLoaded('policies reloaded');
      return { reloaded: true, version: set.version };
    } catch (error) {
      if (!(error instanceof PolicyLoadError)) throw error;
      this.#options.log.warn({ problems: error.problems.map(describeProblem), version: this.#set.version }, 'the reloaded policy set was refused; the previous one stays in force');
      return { reloaded: false, problems: error.problems };
    }
  }

  #logLoaded(message: string): void {
    const { log } = this.#options;
    log.info({ version: this.#set.version, mode: this.mode, files: this.#set.files, policies: this.#set.policies.length }, message);
    for (const warning of this.#set.warnings) log.warn({ warning: describeWarning(warning) }, 'policy validation warning');
  }
}

async function loadSet(options: PolicyLayerOptions, schema: PolicySchema): Promise<LoadedPolicySet> {
  const loaded = await loadPolicySet(options.files, options.cwd, schema);
  if (!loaded.ok) throw new PolicyLoadError(loaded.errors);
  return loaded.set;
}

function describeWarning(warning: PolicyWarning): string {
  return `${describeProblem(warning)} (${warning.policyId})`;
}

const NO_CLAIMS: Readonly<Record<string, string>> = Object.freeze({});

/** Whom the envelope was resolved for; a run stored before policies existed names no subject, roles or claims. */
function principalOf(ownerId: string, envelope: ResolvedEnvelope | EffectiveEnvelope): PolicyPrincipal {
  const caller = ('grant' in envelope ? envelope.grant : envelope).caller;
  return { ownerId, subject: caller?.subject ?? '', roles: caller?.roles ?? [], claims: caller?.claims ?? NO_CLAIMS };
}
