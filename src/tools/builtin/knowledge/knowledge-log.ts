// The slice of a logger the knowledge indexes need; a pino logger satisfies it.

export interface KnowledgeLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}
