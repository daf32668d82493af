// What a run needs of its starting caller and of the host, checked when the run starts (issue 27):
// each ToolUse step's tool, and `knowledge` for a RetrievalPlan, granted by the starting caller's
// envelope and offered here; a chat model for each LlmCall. Every step of the expansion counts, the
// children of sub-plans and both sides of each ConditionalBranch included: which branch is taken is
// known only as the run goes, and a definition naming a tool its runner may not use is wrong either
// way (as validate's checks are). Each tool refused so is a governed denial the service audits.
// Autonomy ceilings, approvals and data classification stay the
// governor's, call by call: a granted tool under Supervised parks for a person or is refused at its
// step, exactly as before.
import { decideTool, type ResolvedEnvelope } from '../../platform/envelope/index.js';
import { DiagnosticList, type Diagnostic } from '../definition/diagnostic.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { RETRIEVAL_OPERATION, RETRIEVAL_TOOL } from '../steps/retrieval-plan-runner.js';

export interface StartHost {
  readonly hasChatModel: boolean;
  /** Whether this host offers a tool of that name (MCP tools: their server is configured). */
  readonly offers: (toolName: string) => boolean;
}

/** A tool call the run would make that the envelope refuses: a governed denial, audited as one (DESIGN §17). */
export interface RefusedCall {
  readonly tool: string;
  readonly operation: string;
}

export interface RunStartCheck {
  readonly diagnostics: readonly Diagnostic[];
  /** Each distinct (tool, operation) refused as not granted, once however many steps name it. */
  readonly notGranted: readonly RefusedCall[];
}

export function checkRunStart(steps: readonly GraphStep[], envelope: ResolvedEnvelope, host: StartHost): RunStartCheck {
  const diagnostics = new DiagnosticList();
  const notGranted = new Map<string, RefusedCall>();
  for (const { path, configuration } of steps) {
    const at = { step: path };
    if (configuration.type === 'LlmCall' && !host.hasChatModel) {
      diagnostics.add('no-chat-model', `Step '${path}' calls the chat model, and no chat model is configured on this host (AppConfig:AI:ChatModel:Provider).`, at);
    }
    const call =
      configuration.type === 'ToolUse'
        ? { tool: configuration.tool, operation: configuration.operation }
        : configuration.type === 'RetrievalPlan'
          ? { tool: RETRIEVAL_TOOL, operation: RETRIEVAL_OPERATION }
          : undefined;
    // Not granted and not offered read the same, as they do everywhere else (GET /api/tools).
    if (call !== undefined && !(host.offers(call.tool) && decideTool(envelope, call.tool).allowed)) {
      diagnostics.add('tool-not-granted', `Step '${path}': the tool '${call.tool}' is not one the starting caller's envelope grants; see GET /api/tools.`, at);
      notGranted.set(`${call.tool}\u0000${call.operation}`, call);
    }
  }
  return { diagnostics: diagnostics.items, notGranted: [...notGranted.values()] };
}
