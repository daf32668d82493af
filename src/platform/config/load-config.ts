// Loads, validates and freezes the configuration: defaults → appsettings.json →
// appsettings.{Environment}.json → each --config file → AppConfig__ environment variables, later
// wins. It reports every problem at once and never exits or logs; the caller decides what to do.
import { buildConfig } from './build-config.js';
import { canonicalizeLayer } from './canonicalize-layer.js';
import { mergeTrees, type ConfigTree } from './config-tree.js';
import { conformsToKeys } from './conforms-to-keys.js';
import { deepFreeze } from './deep-freeze.js';
import { readEnvLayer } from './env-layer.js';
import { readFileLayers } from './file-layers.js';
import { readHostSettings } from './host-settings.js';
import { keyTable } from './key-table.js';
import { readTracingEnvironment } from './otel-environment.js';
import { applyRules, type RuleScope } from './rules/config-rules.js';
import type { DraftConfig } from './rules/config-rule.js';
import { buildSchemaTree } from './schema-tree.js';
import { shapeMcpServers } from './shape-mcp-servers.js';
import type { AppConfig } from './types.js';

export interface LoadConfigOptions {
  /** Where appsettings*.json are looked up and relative paths resolve. */
  readonly cwd: string;
  /** The process environment, passed in by the caller. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Each --config FILE in order (relative to cwd). */
  readonly configFiles: readonly string[];
  /**
   * Which start-up rules run: `all` (default, `serve`), `storage` for a command that uses only
   * AppConfig:Storage (`migrate`), or `mcp-servers` for one that uses only the MCP servers (`policy
   * --config`): the rules reading other keys (authentication, dataset roots, …) are skipped, so a
   * configuration without authentication can still migrate or list its MCP servers' tools.
   */
  readonly rules?: RuleScope;
}

export type LoadConfigResult =
  | { readonly ok: true; readonly config: AppConfig; readonly warnings: string[] }
  | { readonly ok: false; readonly problems: string[] };

const schema = buildSchemaTree(keyTable);
const STANDARD_ENVIRONMENTS = new Set(['Development', 'Staging', 'Production']);
const NOT_AS_DECLARED = 'loadConfig: the built configuration does not hold every key of the key table where its type says';

export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
  const { cwd, env, configFiles } = options;
  const { environment, development } = readHostSettings(env);
  // A missing file for a name other than the three standard ones is most likely a typo (or a
  // lower-case `development` on a case-sensitive file system): say so rather than load nothing.
  const named = (env.PORTCULLIS_ENVIRONMENT?.trim() ?? '') !== '' && !STANDARD_ENVIRONMENTS.has(environment);
  const files = readFileLayers(cwd, environment, configFiles, named);
  const problems = [...files.problems];

  let merged: ConfigTree | undefined;
  for (const raw of [...files.layers, readEnvLayer(env)]) {
    const layer = canonicalizeLayer(raw, schema);
    problems.push(...layer.problems);
    if (layer.tree !== undefined) merged = mergeTrees(merged, layer.tree);
  }

  const built = buildConfig(merged, schema, { cwd, development });
  const decoded = built.value;
  if (!conformsToKeys(decoded, keyTable, 'decoded')) throw new Error(NOT_AS_DECLARED);
  const draft: DraftConfig = { environment, ...decoded };
  const ruled = applyRules(draft, built.failedKeys, { development }, options.rules);
  const tracing = readTracingEnvironment(env);
  problems.push(...built.problems, ...ruled.problems, ...tracing.problems);
  if (problems.length > 0) return { ok: false, problems };

  // With no problem reported, every required key was set: checked, so the settled type is earned.
  if (!conformsToKeys(decoded, keyTable, 'settled')) throw new Error(NOT_AS_DECLARED);
  const config: AppConfig = {
    environment,
    ...decoded,
    mcpServers: shapeMcpServers(decoded.mcpServers),
    observability: { ...decoded.observability, tracing: tracing.value },
  };
  return { ok: true, config: deepFreeze(config), warnings: [...files.warnings, ...built.warnings, ...ruled.warnings] };
}
