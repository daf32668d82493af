// What a start-up rule is: a check across several keys, run on the decoded configuration before
// it is frozen. Rules report problems (refuse start-up) and warnings; they never change values.
import type { AppConfig } from '../types.js';

/** An MCP server before its transport picks its shape; transport is undefined when it was refused. */
export interface DraftMcpServer {
  readonly transport: 'stdio' | 'http' | undefined;
  readonly command: string | null;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly url: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

export type DraftConfig = Omit<AppConfig, 'mcpServers'> & {
  readonly mcpServers: Readonly<Record<string, DraftMcpServer>>;
};

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
