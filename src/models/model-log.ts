// The logging surface the model layer needs: structured objects only. Callers pass the service
// logger; nothing here ever logs an upstream body, an upstream error message or the API key.
export interface ModelLog {
  warn(o: object, m: string): void;
  info(o: object, m: string): void;
  debug?(o: object, m: string): void;
}
