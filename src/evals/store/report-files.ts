// The eval store's files under Evaluation:ReportsRoot: one JSON document per finished run at
// `<root>/<sha256(owner id)>/<jobId>.json`, so a lookup only ever reads inside the caller's own folder
// (another caller's run is a missing file, by construction). Writes are atomic: a temporary file in the
// same folder, then a rename. Only job ids of the shape this host mints ever reach the filesystem.
// The list of an owner's kept runs (their summaries) is read from the folder once per process and
// kept up to date by this process's writes.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FiledRun, RunDetails } from '../eval-run.js';

export const REPORT_FORMAT = 'portcullis-eval-report/1';
const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface ReportDocument {
  readonly format: typeof REPORT_FORMAT;
  readonly run: FiledRun;
  readonly details: RunDetails;
}

export class ReportFiles {
  readonly #root: string;
  /** Per owner id: the kept runs' summaries by job id, once read. */
  readonly #kept = new Map<string, Promise<Map<string, FiledRun>>>();

  constructor(root: string) {
    this.#root = root;
  }

  #folder(ownerId: string): string {
    return join(this.#root, createHash('sha256').update(ownerId, 'utf8').digest('hex'));
  }

  async write(run: FiledRun, details: RunDetails): Promise<void> {
    if (!JOB_ID.test(run.jobId)) throw new Error('job id not storable');
    const folder = this.#folder(run.ownerId);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const target = join(folder, `${run.jobId}.json`);
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    const document: ReportDocument = { format: REPORT_FORMAT, run, details };
    try {
      await writeFile(temporary, JSON.stringify(document), { flag: 'wx', mode: 0o600 });
      await rename(temporary, target);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    (await this.#kept.get(run.ownerId))?.set(run.jobId, run);
  }

  /** The summaries of every run kept for this owner (any order; unreadable files left out). */
  async runs(ownerId: string): Promise<FiledRun[]> {
    let kept = this.#kept.get(ownerId);
    if (kept === undefined) {
      kept = this.#readFolder(ownerId);
      this.#kept.set(ownerId, kept);
    }
    return [...(await kept).values()];
  }

  async #readFolder(ownerId: string): Promise<Map<string, FiledRun>> {
    let names: string[];
    try {
      names = await readdir(this.#folder(ownerId));
    } catch {
      return new Map();
    }
    const jobIds = names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
    const documents = await Promise.all(jobIds.map((jobId) => this.read(ownerId, jobId)));
    return new Map(documents.filter((d) => d !== undefined).map((d) => [d.run.jobId, d.run]));
  }

  /** The caller's filed run, or undefined (unknown, foreign, malformed id or unreadable file alike). */
  async read(ownerId: string, jobId: string): Promise<ReportDocument | undefined> {
    if (!JOB_ID.test(jobId)) return undefined;
    let text: string;
    try {
      text = await readFile(join(this.#folder(ownerId), `${jobId}.json`), 'utf8');
    } catch {
      return undefined;
    }
    const document = parseDocument(text);
    if (document === undefined || document.run.ownerId !== ownerId || document.run.jobId !== jobId) return undefined;
    return document;
  }
}

function parseDocument(text: string): ReportDocument | undefined {
  try {
    const value = JSON.parse(text) as Partial<ReportDocument> | null;
    if (value?.format !== REPORT_FORMAT || typeof value.run !== 'object' || typeof value.details !== 'object') return undefined;
    return value as ReportDocument;
  } catch {
    return undefined;
  }
}
