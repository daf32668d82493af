// The use cases of a caller's own eval datasets (DESIGN.md §19) without HTTP: put a version, list,
// get (a version), delete, and resolve a run's `mine/<name>[@<version>]` to a parsed dataset. Every
// use case is gated as starting a run is (evals enabled and Harness.Evals.Execute, else 403) before
// anything else is read; a submitted dataset is validated as a JSON dataset file is.
import type { AccessPolicy } from '../../platform/access/index.js';
import type { Principal } from '../../platform/auth/index.js';
import { isoInstant } from '../../platform/clock/index.js';
import type { EvaluationConfig } from '../../platform/config/types.js';
import type { Dataset } from '../datasets/dataset.js';
import type { OwnDatasetResolver } from '../datasets/load-datasets.js';
import { datasetNotFound } from '../problems.js';
import { contentDigest } from './content-digest.js';
import { isDatasetName, OWN_PREFIX, parseOwnDatasetName } from './dataset-name.js';
import type { OwnDatasetStore } from './dataset-store.js';
import { datasetBusy, invalidDatasetName, myDatasetNotFound, myDatasetVersionNotFound, tooManyDatasets } from './problems.js';
import { readOwnDataset } from './read-own-dataset.js';
import type { MyEvalDataset, MyEvalDatasetList, MyEvalDatasetVersion } from './schemas.js';

export interface OwnDatasetServiceDeps {
  readonly config: EvaluationConfig;
  readonly access: AccessPolicy;
  readonly store: OwnDatasetStore;
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
