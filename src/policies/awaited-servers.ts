// Which of the MCP servers that have not listed their tools a policy names an action of
// (`Portcullis::Action::"mcp__<server>__<tool>.<operation>"`, in its scope or its conditions). Such a
// policy cannot be validated until that server lists: the schema has no such action yet (DESIGN §18).
import type { PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';
import { parseMcpToolName } from '../platform/envelope/index.js';
import { POLICY_NAMESPACE } from './policy-schema.js';

const ACTION = `${POLICY_NAMESPACE}::Action`;

/** The servers of `unlisted` (compared case-insensitively) the policy names an action of, lower-cased. */
export function unlistedServersNamedBy(policy: PolicyJson, unlisted: readonly string[]): string[] {
  if (unlisted.length === 0) return [];
  const waiting = new Set(unlisted.map((server) => server.toLowerCase()));
  const named = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const { type, id } = node as { type?: unknown; id?: unknown };
    if (type === ACTION && typeof id === 'string') {
      const server = parseMcpToolName(id.slice(0, Math.max(0, id.lastIndexOf('.'))))?.server.toLowerCase();
      if (server !== undefined && waiting.has(server)) named.add(server);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(policy);
  return [...named].sort();
}
