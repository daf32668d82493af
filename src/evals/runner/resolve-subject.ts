// Resolves a dataset's subject once per run: the system prompt, and the tools the model is offered —
// the subject's request (inline `tools`, or the host agent's allowed-tools) narrowed by the starting
// caller's envelope. A subject that cannot be resolved errors every case of its dataset.
import { HostAgents, type AgentTool } from '../../agent/index.js';
import type { ManifestLog } from '../../agent/index.js';
import { narrowEnvelope, type EffectiveEnvelope, type ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { EvalSubject } from '../datasets/dataset.js';

export type ResolvedSubject =
  | { readonly ok: true; readonly kind: 'prompt'; readonly systemPrompt: string; readonly tools: readonly AgentTool[]; readonly envelope: EffectiveEnvelope }
  /** The caller's uploaded bundle (DESIGN §19): resolved per case, as a bundle run resolves it. */
  | { readonly ok: true; readonly kind: 'bundle'; readonly handle: string; readonly envelope: ResolvedEnvelope }
  | { readonly ok: false; readonly error: string };

export interface SubjectSources {
  readonly registry: ToolRegistry;
  readonly agentDiscoveryPaths: readonly string[];
  readonly log: ManifestLog;
}

export async function resolveSubject(subject: EvalSubject, grant: ResolvedEnvelope, sources: SubjectSources, signal: AbortSignal): Promise<ResolvedSubject> {
  let systemPrompt: string;
  let requested: readonly string[] | undefined;
  if (subject.kind === 'agent') {
    const agent = await new HostAgents({ discoveryPaths: sources.agentDiscoveryPaths, log: sources.log }).find(subject.agent);
    if (agent === undefined) return { ok: false, error: `host agent '${subject.agent}' was not found in Agents:DiscoveryPaths` };
    systemPrompt = agent.systemPrompt;
    requested = agent.manifest.allowedTools ?? undefined;
  } else {
    systemPrompt = subject.systemPrompt;
    requested = subject.tools;
  }
  const envelope = narrowEnvelope(grant, requested);
  try {
    const tools = await sources.registry.granted(envelope, signal);
    const offered = tools.map(({ descriptor }) => ({ name: descriptor.name, description: descriptor.description, operations: descriptor.operations }));
    return { ok: true, kind: 'prompt', systemPrompt, tools: offered, envelope };
  } catch {
    return { ok: false, error: 'the subject’s tools could not be listed (an MCP server may be unreachable)' };
  }
}
