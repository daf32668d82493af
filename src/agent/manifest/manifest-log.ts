// Where the manifest reader reports what it skipped (malformed skills, unreadable plugins). A pino
// logger fits; details carry archive paths and reason codes, never file content.
export interface ManifestLog {
  warn(details: Record<string, unknown>, message: string): void;
}
