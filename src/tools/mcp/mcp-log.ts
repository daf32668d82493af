// The logging surface the MCP plane needs: a pino logger fits it; tests pass a recording fake.

export interface McpLog {
  warn(object: object, message: string): void;
  info?(object: object, message: string): void;
}
