// The named retrieval indexes of `Retrieval:Indexes`, loaded at start-up. Shared by the `knowledge`
// tool and the workflow RetrievalPlan step (which does its own rank fusion); optionally re-indexes a
// root when its files change.
import type { KnowledgeDocument } from './knowledge-document.js';
import type { KnowledgeHit } from './knowledge-hit.js';
import { defaultKnowledgeLimits, type KnowledgeLimits } from './knowledge-limits.js';
import type { KnowledgeLog } from './knowledge-log.js';
import { buildKnowledgeIndex, type KnowledgeIndex } from './build-knowledge-index.js';
import { loadDocuments } from './load-documents.js';
import { createReloadScheduler, type ReloadScheduler } from './create-reload-scheduler.js';
import { watchRoot, type WatchRoot } from './watch-root.js';

export const defaultTopK = 5;
export const maxTopK = 50;
/** Longer queries are cut: every term costs a prefix and fuzzy walk of the index. */
export const maxQueryLength = 1000;

export interface KnowledgeWatchOptions {
  /** Quiet period after the last change before re-indexing; default 500 ms. */
  readonly debounceMs?: number;
  /** The change feed; defaults to a recursive fs.watch. */
  readonly watchRoot?: WatchRoot;
}

export interface KnowledgeIndexesOptions {
  /** `Retrieval:Indexes`: index name → folder of documents. */
  readonly indexes: Readonly<Record<string, { readonly root: string }>>;
  readonly log: KnowledgeLog;
  readonly limits?: Partial<KnowledgeLimits>;
  /** Re-index a root when its files change; off unless given. */
  readonly watch?: KnowledgeWatchOptions;
}

export interface KnowledgeIndexes {
  /** Configured index names, sorted. */
  readonly names: readonly string[];
  has(index: string): boolean;
  /** Best hits first; `topK` defaults to 5 and is clamped to 1–50; undefined for an unknown index. A plain function. */
  readonly search: (index: string, query: string, topK?: number) => readonly KnowledgeHit[] | undefined;
  /** The document with that id; undefined for an unknown index or id. A plain function. */
  readonly get: (index: string, id: string) => KnowledgeDocument | undefined;
  /** Re-read one index's root now. */
  reload(index: string): Promise<void>;
  /** Resolves once no change-triggered reload is running. */
  idle(): Promise<void>;
  /** Stop watching; searches keep answering from the last index. */
  close(): Promise<void>;
}

export async function createKnowledgeIndexes(options: KnowledgeIndexesOptions): Promise<KnowledgeIndexes> {
  const { log } = options;
  const limits: KnowledgeLimits = { ...defaultKnowledgeLimits, ...options.limits };
  const roots = new Map(Object.entries(options.indexes).map(([name, { root }]) => [name, root]));
  const built = new Map<string, KnowledgeIndex>();

  async function reload(index: string): Promise<void> {
    const root = roots.get(index);
    if (root === undefined) return;
    const documents = await loadDocuments(index, root, limits, log);
    built.set(index, buildKnowledgeIndex(documents));
    log.info({ index, documents: documents.length }, 'Knowledge index loaded');
  }

  await Promise.all([...roots.keys()].map(reload));

  const schedulers: ReloadScheduler[] = [];
  const stopWatching: (() => void)[] = [];
  if (options.watch !== undefined) {
    const subscribe = options.watch.watchRoot ?? watchRoot;
    for (const [index, root] of roots) {
      const scheduler = createReloadScheduler(options.watch.debounceMs ?? 500, () =>
        reload(index).catch((error: unknown) => log.warn({ index, error }, 'Knowledge index reload failed; keeping the previous index')),
      );
      schedulers.push(scheduler);
      try {
        stopWatching.push(subscribe(root, () => scheduler.poke(), (error) => log.warn({ index, error }, 'Knowledge root watch failed')));
      } catch (error) {
        log.warn({ index, error }, 'Knowledge root cannot be watched; changes need a restart');
      }
    }
  }

  return {
    names: [...roots.keys()].sort(),
    has: (index) => built.has(index),
    search: (index, query, topK = defaultTopK) => {
      const k = Math.min(maxTopK, Math.max(1, Math.floor(Number.isFinite(topK) ? topK : defaultTopK)));
      return built.get(index)?.search(query.slice(0, maxQueryLength), k);
    },
    get: (index, id) => built.get(index)?.get(id),
    reload,
    async idle() {
      await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
    },
    async close() {
      for (const stop of stopWatching.splice(0)) stop();
      for (const scheduler of schedulers) scheduler.cancel();
      await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
    },
  };
}
