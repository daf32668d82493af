// The use cases of a caller's own eval datasets (DESIGN.md §19) without HTTP: put a version, add a case
// made from a finished bundle run as the next version, list, get (a version), delete, and resolve a
// run's `mine/<name>[@<version>]` to a parsed dataset. Every use case is gated as starting a run is
// (evals enabled and Harness.Evals.Execute, else 403) before anything else is read; a submitted
// dataset, and one with an added case, is validated as a JSON dataset file is.
import { Compile } from '../../platform/vendor/typebox.js';
import { bundlesDisabled, type FinishedBundleRuns } from '../../bundles/index.js';
import type { AccessPolicy } from '../../platform/access/index.js';
import type { Principal } from '../../platform/auth/index.js';
import { isoInstant } from '../../platform/clock/index.js';
import type { EvaluationConfig } from '../../platform/config/types.js';
import { validationProblem } from '../../platform/http/framework-errors.js';
import type { Dataset } from '../datasets/dataset.js';
import type { OwnDatasetResolver } from '../datasets/load-datasets.js';
import { datasetNotFound } from '../problems.js';
import { caseFromRun } from './case-from-run.js';
import { contentDigest } from './content-digest.js';
import { isDatasetName, OWN_PREFIX, parseOwnDatasetName } from './dataset-name.js';
import type { OwnDatasetStore } from './dataset-store.js';
import { datasetBusy, invalidDatasetName, myDatasetNotFound, myDatasetVersionNotFound, tooManyDatasets } from './problems.js';
import { readOwnDataset } from './read-own-dataset.js';
import { AddMyEvalDatasetCaseShapeSchema, type AddMyEvalDatasetCaseResponse, type AddMyEvalDatasetCaseShape, type MyEvalDataset, type MyEvalDatasetList, type MyEvalDatasetVersion } from './schemas.js';

const addCaseShape = Compile(AddMyEvalDatasetCaseShapeSchema);

export interface OwnDatasetServiceDeps {
  readonly config: EvaluationConfig;
  readonly access: AccessPolicy;
  readonly store: OwnDatasetStore;
  /** The callers' finished bundle runs (a run becomes a case); absent: no run can be read (403 as with bundles off). */
  readonly runs?: FinishedBundleRuns;
}

export class OwnDatasetService implements OwnDatasetResolver {
  readonly #deps: OwnDatasetServiceDeps;

  constructor(deps: OwnDatasetServiceDeps) {
    this.#deps = deps;
  }

  /** Stores `body` as the dataset's next version, or answers the latest when its content is equal; `created` when the name is new. */
  async put(principal: Principal, name: string, body: unknown): Promise<{ created: boolean; version: MyEvalDatasetVersion }> {
    this.#gate(principal);
    if (!isDatasetName(name)) throw invalidDatasetName();
    const dataset = readOwnDataset(name, `${OWN_PREFIX}${name}`, body, this.#deps.config);
    const caseCount = dataset.cases.length;
    const saved = await this.#deps.store.save(principal.ownerId, name, { dataset: body, caseCount, contentDigest: contentDigest(body) });
    if (saved.outcome === 'owner-cap') throw tooManyDatasets(this.#deps.store.maxPerOwner);
    if (saved.outcome === 'busy') throw datasetBusy();
    const { version, createdAt } = saved.version;
    return { created: saved.outcome === 'created', version: { name, version, caseCount: saved.version.caseCount, createdAt: isoInstant(createdAt) } };
  }

  /**
   * Appends the case a finished bundle run of the caller becomes (case-from-run.ts) as the dataset's
   * next version, creating the dataset when it has none; the new version is validated whole, as a PUT
   * of it would be. Raced by another write, it is derived again from the newer latest (append-version.ts).
   */
  async addCase(principal: Principal, name: string, body: unknown): Promise<AddMyEvalDatasetCaseResponse> {
    this.#gate(principal);
    if (!isDatasetName(name)) throw invalidDatasetName();
    const request = readAddCaseRequest(body);
    const runs = this.#deps.runs;
    if (runs === undefined || !runs.enabled) throw bundlesDisabled();
    const added = await caseFromRun(runs, principal, request.from, request);
    let caseId = '';
    const saved = await this.#deps.store.append(principal.ownerId, name, (latest) => {
      const dataset = withCase(latest, added);
      const parsed = readOwnDataset(name, `${OWN_PREFIX}${name}`, dataset, this.#deps.config);
      caseId = parsed.cases.at(-1)!.id;
      return { dataset, caseCount: parsed.cases.length, contentDigest: contentDigest(dataset) };
    });
    if (saved.outcome === 'owner-cap') throw tooManyDatasets(this.#deps.store.maxPerOwner);
    if (saved.outcome === 'busy') throw datasetBusy();
    return { name, version: saved.version.version, caseId };
  }

  async list(principal: Principal, page: { readonly limit: number; readonly cursor: string | null }): Promise<MyEvalDatasetList> {
    this.#gate(principal);
    const found = await this.#deps.store.list(principal.ownerId, page);
    return {
      datasets: found.entries.map(({ name, head }) => ({ name, version: head.latestVersion, caseCount: head.caseCount, updatedAt: isoInstant(head.updatedAt) })),
      nextCursor: found.nextCursor,
    };
  }

  /** The dataset object of a version (default the latest), with its name, version and time. */
  async get(principal: Principal, name: string, version?: number): Promise<MyEvalDataset> {
    this.#gate(principal);
    const head = isDatasetName(name) ? await this.#deps.store.head(principal.ownerId, name) : undefined;
    if (head === undefined) throw myDatasetNotFound();
    const found = await this.#deps.store.version(principal.ownerId, name, head, version ?? head.latestVersion);
    if (found === undefined) throw version === undefined ? myDatasetNotFound() : myDatasetVersionNotFound();
    return { name, version: found.version, createdAt: isoInstant(found.createdAt), ...(found.dataset as Omit<MyEvalDataset, 'name' | 'version' | 'createdAt'>) };
  }

  async delete(principal: Principal, name: string): Promise<void> {
    this.#gate(principal);
    if (!isDatasetName(name) || !(await this.#deps.store.delete(principal.ownerId, name))) throw myDatasetNotFound();
  }

  /**
   * The owner's dataset a run names `mine/<name>` (latest) or `mine/<name>@<version>`, parsed and named
   * exactly as the run names it; an unknown name or version is the 404 of any unknown dataset.
   */
  async resolve(ownerId: string, runName: string): Promise<Dataset> {
    const named = parseOwnDatasetName(runName);
    const head = named === undefined ? undefined : await this.#deps.store.head(ownerId, named.name);
    if (named === undefined || head === undefined) throw datasetNotFound();
    const found = await this.#deps.store.version(ownerId, named.name, head, named.version ?? head.latestVersion);
    if (found === undefined) throw datasetNotFound();
    return readOwnDataset(named.name, runName, found.dataset, this.#deps.config);
  }

  sweep(): Promise<void> {
    return this.#deps.store.sweep();
  }

  #gate(principal: Principal): void {
    this.#deps.access.authorize(principal, 'evals.datasets', { surfaceEnabled: this.#deps.config.enabled });
  }
}

function readAddCaseRequest(body: unknown): AddMyEvalDatasetCaseShape {
  if (!addCaseShape.Check(body)) throw validationProblem('body', [...addCaseShape.Errors(body)].map((e) => ({ ...e })));
  return body;
}

/** The latest version's dataset object (validated when it was written) with `added` after its cases; a new dataset of it alone. */
function withCase(latest: unknown, added: Record<string, unknown>): Record<string, unknown> {
  if (latest === undefined) return { cases: [added] };
  const dataset = latest as Record<string, unknown> & { readonly cases: readonly unknown[] };
  return { ...dataset, cases: [...dataset.cases, added] };
}
