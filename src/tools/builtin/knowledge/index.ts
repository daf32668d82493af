// Public surface of the `knowledge` built-in tool and the retrieval indexes it shares with workflows.
export { createKnowledgeTool } from './create-knowledge-tool.js';
export {
  createKnowledgeIndexes,
  defaultTopK,
  maxTopK,
  maxQueryLength,
  type KnowledgeIndexes,
  type KnowledgeIndexesOptions,
  type KnowledgeWatchOptions,
} from './create-knowledge-indexes.js';
export type { KnowledgeDocument } from './knowledge-document.js';
export type { KnowledgeHit } from './knowledge-hit.js';
export { defaultKnowledgeLimits, type KnowledgeLimits } from './knowledge-limits.js';
export type { KnowledgeLog } from './knowledge-log.js';
export type { WatchRoot } from './watch-root.js';
