// Validates a submitted workflow definition completely: field shapes (unknown fields included), then
// the graph, branches, references, retrieval indexes, tools and sub-plans, collecting every diagnostic before answering. A valid
// definition comes back as a typed draft ready to be stored.
import { checkBranches } from './check-branches.js';
import { checkGraph } from './check-graph.js';
import { checkReferences } from './check-references.js';
import { checkRetrievalIndexes } from './check-retrieval-indexes.js';
import { checkSubPlans, type SubPlanShape, type WorkflowLookup } from './check-sub-plans.js';
import { checkToolSteps, type StepTools } from './check-tool-steps.js';
import { DiagnosticList, type Diagnostic } from './diagnostic.js';
import { readDefinition } from './read-definition.js';
import type { DefinitionStep, WorkflowDraft } from './workflow-definition.js';

export interface ValidationContext {
  readonly maxSteps: number;
  readonly hasIndex: (name: string) => boolean;
  /** The host's tools and the parameter validator (ToolUse steps). */
  readonly tools: StepTools;
  /** Finds the caller's own stored workflows (sub-plan targets). */
  readonly lookup: WorkflowLookup;
  /** The id the definition will be stored under, when it is being submitted (not a dry run). */
  readonly selfId?: string;
}

export type DefinitionValidation =
  | { readonly valid: true; readonly draft: WorkflowDraft; readonly shape: SubPlanShape; readonly diagnostics: readonly Diagnostic[] }
  | { readonly valid: false; readonly diagnostics: readonly Diagnostic[] };

export async function validateDefinition(body: unknown, context: ValidationContext): Promise<DefinitionValidation> {
  const diagnostics = new DiagnosticList();
  const read = readDefinition(body, diagnostics, context.maxSteps);
  const graph = checkGraph(read, diagnostics);
  checkBranches(read, graph, diagnostics);
  checkReferences(read, graph, diagnostics);
  checkRetrievalIndexes(read, context.hasIndex, diagnostics);
  checkToolSteps(read, context.tools, diagnostics);
  const shape = await checkSubPlans(read, { selfId: context.selfId, lookup: context.lookup, maxSteps: context.maxSteps }, diagnostics);
  if (!diagnostics.empty || read.name === undefined || graph.entry === undefined) {
    return { valid: false, diagnostics: diagnostics.items };
  }
  const steps: DefinitionStep[] = read.steps.map((step) => ({ name: step.name!, type: step.type!, configuration: step.configuration! }));
  const edges = read.edges.map((edge) => ({ from: edge.from!, to: edge.to!, type: 'ControlFlow' as const }));
  const draft: WorkflowDraft = { name: read.name, steps, edges, entryStep: steps[graph.entry]!.name, input: read.input };
  return { valid: true, draft, shape, diagnostics: [] };
}
