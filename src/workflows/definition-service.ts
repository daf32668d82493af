// Workflow definitions without HTTP: validate (dry run), submit (validate, mint ids, store under the
// caller), list newest first, get, delete (refused while a run is live).
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { Owner } from '../platform/ownership/index.js';
import type { Diagnostic } from './definition/diagnostic.js';
import type { DefinitionStore } from './definition/definition-store.js';
import type { StepTools } from './definition/check-tool-steps.js';
import { validateDefinition, type ValidationContext } from './definition/validate-definition.js';
import type { StoredWorkflow } from './definition/workflow-definition.js';
import { definitionCapReached, deleteWhileLive, invalidDefinition, workflowNotFound } from './problems.js';

export interface DefinitionServiceDependencies {
  readonly store: DefinitionStore;
  /** Whether the owner's workflow has a Queued, Running or Blocked run. */
  readonly hasLiveRun: (owner: Owner, workflowId: string) => Promise<boolean>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly maxSteps: number;
  readonly maxDefinitionsPerOwner: number;
  readonly hasIndex: (name: string) => boolean;
  readonly tools: StepTools;
}

export class DefinitionService {
  readonly #deps: DefinitionServiceDependencies;

  constructor(deps: DefinitionServiceDependencies) {
    this.#deps = deps;
  }

  async validate(owner: Owner, body: unknown): Promise<{ valid: boolean; diagnostics: Diagnostic[] }> {
    const result = await validateDefinition(body, this.#context(owner));
    return { valid: result.valid, diagnostics: [...result.diagnostics] };
  }

  async submit(owner: Owner, body: unknown): Promise<StoredWorkflow> {
    const id = this.#deps.ids.uuid();
    const result = await validateDefinition(body, { ...this.#context(owner), selfId: id });
    if (!result.valid) throw invalidDefinition(result.diagnostics);
    const { draft, shape } = result;
    const workflow: StoredWorkflow = {
      id,
      ownerId: owner.ownerId,
      name: draft.name,
      createdAt: this.#deps.clock.now(),
      steps: draft.steps.map((step) => ({ ...step, id: this.#deps.ids.uuid() })),
      edges: draft.edges,
      entryStep: draft.entryStep,
      input: draft.input,
      expandedStepCount: shape.expandedStepCount,
      subPlanDepth: shape.subPlanDepth,
    };
    if (!(await this.#deps.store.add(workflow, this.#deps.maxDefinitionsPerOwner))) throw definitionCapReached(this.#deps.maxDefinitionsPerOwner);
    return workflow;
  }

  list(owner: Owner): Promise<StoredWorkflow[]> {
    return this.#deps.store.list(owner);
  }

  async get(owner: Owner, id: string): Promise<StoredWorkflow> {
    const workflow = await this.#deps.store.find(owner, id);
    if (workflow === undefined) throw workflowNotFound();
    return workflow;
  }

  async delete(owner: Owner, id: string): Promise<void> {
    await this.get(owner, id);
    if (await this.#deps.hasLiveRun(owner, id)) throw deleteWhileLive();
    await this.#deps.store.remove(owner, id);
  }

  #context(owner: Owner): ValidationContext {
    return {
      maxSteps: this.#deps.maxSteps,
      hasIndex: this.#deps.hasIndex,
      tools: this.#deps.tools,
      lookup: (workflowId) => this.#deps.store.find(owner, workflowId),
    };
  }
}
