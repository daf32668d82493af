// One indexed document, as `knowledge.get` returns it.

export interface KnowledgeDocument {
  /** Path relative to the index root, `/`-separated (`guides/setup.md`). */
  readonly id: string;
  readonly title: string;
  readonly text: string;
}
