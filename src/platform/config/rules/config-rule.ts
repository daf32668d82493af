// What a start-up rule is: a check across several keys, run on the decoded configuration before
// it is frozen. Rules report problems (refuse start-up) and warnings; they never change values.
import type { ConfigFromKeys } from '../config-from-keys.js';
import type { KeyRow } from '../key-table.js';

/** Every key as decoded (a required key that was missing or refused is absent), and the environment name. */
export interface DraftConfig extends ConfigFromKeys<KeyRow, 'decoded'> {
  readonly environment: string;
}

/** An MCP server before its transport picks its shape; transport is undefined when it was refused. */
export type DraftMcpServer = DraftConfig['mcpServers'][string];

export interface RuleReport {
  problem(message: string): void;
  warning(message: string): void;
}

export interface RuleContext {
  readonly development: boolean;
  /** True when the key's configured value was refused (and a stand-in default is in its place). */
  readonly refused: (key: string) => boolean;
}

export interface ConfigRule {
  /** Keys the rule reads: it is skipped when one of them was refused, since its value is then a stand-in default. */
  readonly reads: readonly string[];
  check(config: DraftConfig, report: RuleReport, context: RuleContext): void;
}
