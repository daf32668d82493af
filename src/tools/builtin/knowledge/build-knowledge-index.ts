// One BM25 full-text index over a fixed set of documents (MiniSearch). Immutable once built:
// reloading builds a new one and swaps it in, so a search never sees a half-built index.
import MiniSearch, { type SearchOptions } from 'minisearch';
import type { KnowledgeDocument } from './knowledge-document.js';
import type { KnowledgeHit } from './knowledge-hit.js';
import { buildSnippet } from './build-snippet.js';

export interface KnowledgeIndex {
  readonly size: number;
  search(query: string, topK: number): KnowledgeHit[];
  get(id: string): KnowledgeDocument | undefined;
}

const searchOptions: SearchOptions = {
  boost: { title: 2 },
  combineWith: 'OR',
  // Prefix and light fuzzy matching only on longer terms, so short words stay exact.
  prefix: (term) => term.length >= 3,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
};

export function buildKnowledgeIndex(documents: readonly KnowledgeDocument[]): KnowledgeIndex {
  const byId = new Map(documents.map((document) => [document.id, document]));
  const search = new MiniSearch<KnowledgeDocument>({ idField: 'id', fields: ['title', 'text'], storeFields: [] });
  search.addAll([...byId.values()]);

  return {
    size: byId.size,
    get: (id) => byId.get(id),
    search(query, topK) {
      const hits: KnowledgeHit[] = [];
      for (const result of search.search(query, searchOptions)) {
        const document = byId.get(String(result.id));
        if (document === undefined) continue;
        hits.push({
          id: document.id,
          title: document.title,
          score: Math.round(result.score * 10_000) / 10_000,
          snippet: buildSnippet(document.text, result.terms),
          text: document.text,
        });
        if (hits.length >= topK) break;
      }
      return hits;
    },
  };
}
