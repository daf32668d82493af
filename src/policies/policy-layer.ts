// The policy layer as the service runs it (DESIGN.md §18): the loaded set and its decider, the mode,
// and the run counters. It answers the governed call (`judge`, `ran`: the PolicyGate), the explain
// route (`explain`: the same decision for the caller themself, nothing run or counted) and the schema
// route; `reload` re-reads the files (SIGHUP) and keeps the set in force when the new one is invalid.
// The principal is whom the call's envelope was resolved for (a run keeps it with its envelope), so
// a run's calls are judged as its starter's wherever they run.
// MCP servers list their tools when they answer, which may be after start: a server the set names an
// action of but that has not listed is *awaited*, and every call of its tools is denied (fail closed).
// Each listing fetched later (`listed`) that changes the schema validates the same texts again: the
// server's tools are then judged by the set, or, when the set does not validate against them, the
// server is *refused* and its tools stay denied (logged) until a listing or a reload validates.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../platform/envelope/index.js';
import { parseMcpToolName } from '../platform/envelope/index.js';
import type { PolicyCall, PolicyGate, PolicyJudgement, PolicyMode } from '../tools/policy-gate.js';
import { OUTSIDE_RUNS, type RunCallCounts, type RunCounters } from '../tools/run-call-counts.js';
import type { ToolCatalog } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import type { PolicySchema } from './cedar-schema-types.js';
import { PolicyDecider } from './policy-decider.js';
import type { PolicyPrincipal, PolicySurface } from './policy-request.js';
import { cedarSchemaFor, policyActionName, type PolicyTool } from './policy-schema.js';
import { loadPolicySet, revalidatePolicySet, type LoadedPolicySet, type PolicySetError, type PolicySetLoad, type PolicyWarning } from './policy-set.js';

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
  /** The catalog the set in force was validated against, and the MCP servers that had not listed. */
  #catalog: ToolCatalog;
  /** MCP servers (lower-cased) whose latest listing the set does not validate against: their tools are denied. */
  readonly #refused = new Set<string>();
  /** Validations against listings, one after another; a judged call of an awaited or refused server waits for them. */
  #validating: Promise<void> = Promise.resolve();

  private constructor(options: PolicyLayerOptions, set: LoadedPolicySet, catalog: ToolCatalog) {
    this.mode = options.mode;
    this.#options = options;
    this.#set = set;
    this.#decider = new PolicyDecider(set);
    this.#catalog = catalog;
  }

  /** Loads and validates the files against the catalog's schema; throws PolicyLoadError naming every problem. */
  static async load(options: PolicyLayerOptions, catalog: ToolCatalog): Promise<PolicyLayer> {
    const set = await loadSet(options, catalog);
    const layer = new PolicyLayer(options, set, catalog);
    layer.#logLoaded('policies loaded');
    return layer;
  }

  /** MCP servers whose tools are denied until they validate: awaited (not listed yet) and refused, lower-cased. */
  get withheldServers(): readonly string[] {
    return [...new Set([...this.#set.awaiting, ...this.#refused])].sort();
  }

  /**
   * A listing fetched from an MCP server: when it changes the schema (or the server is awaited or
   * refused), the set in force is validated against the catalog with it, after any validation under way.
   */
  listed(server: string, tools: readonly Tool[]): void {
    const key = server.toLowerCase();
    this.#validating = this.#validating.then(async () => {
      const catalog = withListing(this.#catalog, server, tools);
      const withheld = this.#set.awaiting.includes(key) || this.#refused.has(key);
      const schema = cedarSchemaFor(catalog.tools.map(policyToolOf));
      if (!withheld && JSON.stringify(schema) === JSON.stringify(this.#set.schema)) {
        this.#catalog = catalog;
        return;
      }
      const answer = await revalidatePolicySet(this.#set, schema, catalog.unlisted);
      this.#catalog = catalog;
      if (answer.ok) {
        this.#refused.delete(key);
        this.#adopt(answer.set);
        this.#options.log.info({ server, version: answer.set.version, withheld: this.withheldServers }, "the policy set validates against the MCP server's tools");
        return;
      }
      this.#refused.add(key);
      this.#options.log.warn(
        { server, version: this.#set.version, problems: answer.errors.map(describeProblem) },
        "the policy set does not validate against the MCP server's tools; every call of them is denied until it does",
      );
    }).catch((error: unknown) => {
      this.#refused.add(key);
      this.#options.log.warn({ server, err: error }, "validating the policy set against the MCP server's tools failed; every call of them is denied");
    });
  }

  get version(): string {
    return this.#set.version;
  }

  /** The Cedar schema (JSON) the set was validated against. */
  get schema(): PolicySchema {
    return this.#set.schema;
  }

  async judge(call: PolicyCall): Promise<PolicyJudgement> {
    const server = policyToolOf(call.tool).server.toLowerCase();
    if (server !== '' && (this.#withholds(server) || !this.#knows(call.tool, call.operation))) {
      // The listing that found this tool may be being validated against now: decide with its outcome.
      await this.#validating;
      if (this.#withholds(server)) return this.#withheld(server);
    }
    const run = call.runId === undefined ? OUTSIDE_RUNS : await this.#options.counts.read(call.ownerId, call.runId, call.tool.descriptor.name);
    return this.#decide(call.ownerId, call.envelope, call.tool, call.operation, call.parameters, call.surface, call.bundleId ?? '', run);
  }

  async ran(call: PolicyCall): Promise<void> {
    if (call.runId !== undefined) await this.#options.counts.granted(call.ownerId, call.runId, call.tool.descriptor.name);
  }

  /** The policy layer's own decision on a call, without running or counting anything (the explain route). */
  explain(ownerId: string, envelope: ResolvedEnvelope | EffectiveEnvelope, tool: Tool, operation: string, parameters: unknown, surface: PolicySurface): PolicyJudgement {
    const server = policyToolOf(tool).server.toLowerCase();
    if (server !== '' && this.#withholds(server)) return this.#withheld(server);
    return this.#decide(ownerId, envelope, tool, operation, parameters, surface, '', OUTSIDE_RUNS);
  }

  #knows(tool: Tool, operation: string): boolean {
    return Object.hasOwn(this.#set.schema.Portcullis.actions, policyActionName(tool.descriptor.name, operation));
  }

  #withholds(server: string): boolean {
    return this.#set.awaiting.includes(server) || this.#refused.has(server);
  }

  /** The denial of a call of a server's tool that the set has not been validated against. */
  #withheld(server: string): PolicyJudgement {
    const reason = this.#refused.has(server)
      ? `The policy set does not validate against MCP server "${server}"'s tools, so none of them may be called.`
      : `The policy set names tools of MCP server "${server}", which has not listed its tools yet, so none of them may be called until it does.`;
    return { version: this.#set.version, mode: this.mode, decision: 'deny', determining: [], errors: [], reason };
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
  async reload(catalog: ToolCatalog): Promise<{ readonly reloaded: true; readonly version: string } | { readonly reloaded: false; readonly problems: readonly PolicySetError[] }> {
    try {
      const set = await loadSet(this.#options, catalog);
      this.#adopt(set);
      this.#catalog = catalog;
      this.#refused.clear();
      this.#logLoaded('policies reloaded');
      return { reloaded: true, version: set.version };
    } catch (error) {
      if (!(error instanceof PolicyLoadError)) throw error;
      this.#options.log.warn({ problems: error.problems.map(describeProblem), version: this.#set.version }, 'the reloaded policy set was refused; the previous one stays in force');
      return { reloaded: false, problems: error.problems };
    }
  }

  #adopt(set: LoadedPolicySet): void {
    const decider = new PolicyDecider(set);
    this.#set = set;
    this.#decider = decider;
  }

  #logLoaded(message: string): void {
    const { log } = this.#options;
    log.info({ version: this.#set.version, mode: this.mode, files: this.#set.files, policies: this.#set.policies.length }, message);
    if (this.#set.awaiting.length > 0) {
      log.warn({ servers: this.#set.awaiting }, 'policies name tools of MCP servers that have not listed them; every call of those servers\' tools is denied until they list and the set validates');
    }
    for (const warning of this.#set.warnings) log.warn({ warning: describeWarning(warning) }, 'policy validation warning');
  }
}

async function loadSet(options: PolicyLayerOptions, catalog: ToolCatalog): Promise<LoadedPolicySet> {
  const loaded: PolicySetLoad = await loadPolicySet(options.files, options.cwd, cedarSchemaFor(catalog.tools.map(policyToolOf)), catalog.unlisted);
  if (!loaded.ok) throw new PolicyLoadError(loaded.errors);
  return loaded.set;
}

/** The catalog with one server's tools replaced by its new listing, and that server listed. */
function withListing(catalog: ToolCatalog, server: string, tools: readonly Tool[]): ToolCatalog {
  const key = server.toLowerCase();
  const others = catalog.tools.filter((tool) => policyToolOf(tool).server.toLowerCase() !== key);
  return { tools: [...others, ...tools], unlisted: catalog.unlisted.filter((name) => name.toLowerCase() !== key) };
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
