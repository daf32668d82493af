// One row of the configuration reference (docs/reference/configuration.md, `--help`-style listings).

export interface ConfigKeyDoc {
  /** Full key; map keys as patterns (`AppConfig:AI:McpServers:{name}:Transport`); environment-only names as written. */
  readonly key: string;
  readonly type: string;
  /** The default as displayed; empty when there is none. */
  readonly default: string;
  readonly meaning: string;
}
