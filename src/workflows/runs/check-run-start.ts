// What a run needs of its starting caller and of the host, checked when the run starts (issue 27):
// each ToolUse step's tool, and `knowledge` for a RetrievalPlan, granted by the starting caller's
// envelope and offered here; a chat model for each LlmCall. Every step of the expansion counts, the
// children of sub-plans and both sides of each ConditionalBranch included: which branch is taken is
// known only as the run goes, and a definition naming a tool its runner may not use is wrong either
// way (as validate's checks are). Autonomy ceilings, approvals and data classification stay the
// governor's, call by call: a granted tool under Supervised parks for a person or is refused at its
// step, exactly as before.
import { decideTool, type ResolvedEnvelope } from '../../platform/envelope/index.js';
import { DiagnosticList, type Diagnostic } from '../definition/diagnostic.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { RETRIEVAL_TOOL } from '../steps/retrieval-plan-runner.js';

export interface StartHost {
  readonly hasChatModel: boolean;
  /** Whether this host offers a tool of that name (MCP tools: their server is configured). */
  readonly offers: (toolName: string) => boolean;
}

export function checkRunStart(steps: readonly GraphStep[], envelope: ResolvedEnvelope, host: StartHost): readonly Diagnostic[] {
  const diagnostics = new DiagnosticList();
  for (const { path, configuration } of steps) {
    const at = { step: path };
    if (configuration.type === 'LlmCall' && !host.hasChatModel) {
      diagnostics.add('no-chat-model', `Step '${path}' calls the chat model, and no chat model is configured on this host (AppConfig:AI:ChatModel:Provider).`, at);
    }
    const tool = configuration.type === 'ToolUse' ? configuration.tool : configuration.type === 'RetrievalPlan' ? RETRIEVAL_TOOL : undefined;
    // Not granted and not offered read the same, as they do everywhere else (GET /api/tools).
    if (tool !== undefined && !(host.offers(tool) && decideTool(envelope, tool).allowed)) {
      diagnostics.add('tool-not-granted', `Step '${path}': the tool '${tool}' is not one the starting caller's envelope grants; see GET /api/tools.`, at);
    }
  }
  return diagnostics.items;
}
