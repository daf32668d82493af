// AllowedTools lists as permission sets: canonical form, true intersection, and matching a tool name.
// Set algebra only; whether the tool's MCP server may be contacted is decided elsewhere.
import { parseMcpToolName } from './mcp-tool-name.js';
import { sortedUnique } from './sorted-unique.js';
import { formatToolPattern, parseToolPattern, type ToolPattern } from './tool-pattern.js';

function parseAll(patterns: readonly string[]): ToolPattern[] {
  return patterns.map(parseToolPattern).filter((p): p is ToolPattern => p !== null);
}

function canonical(patterns: readonly ToolPattern[]): string[] {
  const wildcardServers = new Set(patterns.flatMap((p) => (p.kind === 'mcp-server' ? [p.server] : [])));
  // An exact server tool beside its server's wildcard adds nothing; dropping it makes equal sets spell equal.
  const kept = patterns.filter((p) => p.kind !== 'mcp-tool' || !wildcardServers.has(p.server));
  return sortedUnique(kept.map(formatToolPattern));
}

/** Lower-cased, canonical (`mcp__S` → `mcp__S__*`), deduplicated, sorted; entries that match nothing are dropped. */
export function normalizeToolPatterns(patterns: readonly string[]): string[] {
  return canonical(parseAll(patterns));
}

function covers(set: readonly ToolPattern[], p: ToolPattern): boolean {
  return set.some((q) => {
    if (p.kind === 'tool') return q.kind === 'tool' && q.name === p.name;
    if (q.kind === 'mcp-server') return q.server === p.server;
    return p.kind === 'mcp-tool' && q.kind === 'mcp-tool' && q.server === p.server && q.tool === p.tool;
  });
}

/** Exactly the tools both lists allow: `mcp__s__*` ∩ `mcp__s__t` is `mcp__s__t`; a wildcard survives only if both have it. */
export function intersectToolPatterns(a: readonly string[], b: readonly string[]): string[] {
  const left = parseAll(a);
  const right = parseAll(b);
  return canonical([...left.filter((p) => covers(right, p)), ...right.filter((p) => covers(left, p))]);
}

/** Normalized sets of frozen lists (a resolved envelope's): a frozen list cannot change under its set. */
const frozenSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function patternSet(patterns: readonly string[]): ReadonlySet<string> {
  if (!Object.isFrozen(patterns)) return new Set(normalizeToolPatterns(patterns));
  let set = frozenSets.get(patterns);
  if (set === undefined) {
    set = new Set(normalizeToolPatterns(patterns));
    frozenSets.set(patterns, set);
  }
  return set;
}

/** The canonical pattern that admits `toolName` (a name, not a pattern), or null. */
export function matchToolPattern(patterns: readonly string[], toolName: string): string | null {
  const set = patternSet(patterns);
  const name = toolName.toLowerCase();
  const mcp = parseMcpToolName(name);
  if (mcp) {
    const exact = `mcp__${mcp.server}__${mcp.tool}`;
    const wildcard = `mcp__${mcp.server}__*`;
    return set.has(exact) ? exact : set.has(wildcard) ? wildcard : null;
  }
  return set.has(name) ? name : null;
}
