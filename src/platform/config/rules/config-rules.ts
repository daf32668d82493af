// The start-up rules that relate several keys, and running them all: every rule runs (so every
// problem is reported at once) unless a key it reads was already refused, or it is out of the
// scope asked for (`migrate` asks only for the storage rules, `policy` for the MCP servers').
import { authInstanceRule } from './auth-instance-rule.js';
import { authSchemeRule } from './auth-scheme-rule.js';
import type { ConfigRule, DraftConfig, RuleContext } from './config-rule.js';
import { envelopeRule } from './envelope-rule.js';
import { evaluationRootsRule } from './evaluation-roots-rule.js';
import { mcpServerRule } from './mcp-server-rule.js';
import { storageProviderRule } from './storage-provider-rule.js';

export const configRules: readonly ConfigRule[] = [authSchemeRule, authInstanceRule, evaluationRootsRule, mcpServerRule, envelopeRule, storageProviderRule];

/**
 * `storage`: only the rules that read nothing but AppConfig:Storage keys (what `migrate` needs);
 * `mcp-servers`: only those that read nothing but AppConfig:AI:McpServers keys (what `policy --config` needs).
 */
export type RuleScope = 'all' | 'storage' | 'mcp-servers';

const SCOPE_KEYS: Readonly<Record<Exclude<RuleScope, 'all'>, string>> = { storage: 'AppConfig:Storage:', 'mcp-servers': 'AppConfig:AI:McpServers:' };

const inScope = (rule: ConfigRule, scope: RuleScope): boolean =>
  scope === 'all' || rule.reads.every((key) => key.startsWith(SCOPE_KEYS[scope]));

export function applyRules(
  config: DraftConfig,
  failedKeys: ReadonlySet<string>,
  { development }: Pick<RuleContext, 'development'>,
  scope: RuleScope = 'all',
): { readonly problems: string[]; readonly warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  const report = { problem: (message: string) => void problems.push(message), warning: (message: string) => void warnings.push(message) };
  const context: RuleContext = { development, refused: (key) => failedKeys.has(key) };
  for (const rule of configRules) {
    if (!inScope(rule, scope)) continue;
    if (rule.reads.some((key) => failedKeys.has(key))) continue;
    rule.check(config, report, context);
  }
  return { problems, warnings };
}
