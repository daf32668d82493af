// May this tool be used at all under this envelope (catalog visibility, the governed call's first gate)? Checks the
// name's form, the MCP server, AllowedTools, then the narrowing request. Autonomy is decide-execution's job.
import { envelopeName, envelopeReference } from './envelope-label.js';
import { MCP_PREFIX, parseMcpToolName } from './mcp-tool-name.js';
import type { EffectiveEnvelope } from './narrow-envelope.js';
import type { ResolvedEnvelope } from './resolved-envelope.js';
import { deny, type ToolDecision } from './tool-decision.js';
import { matchToolPattern } from './tool-pattern-set.js';
import { madeOnce } from '../memo/index.js';

export function grantOf(envelope: ResolvedEnvelope | EffectiveEnvelope): ResolvedEnvelope {
  return 'grant' in envelope ? envelope.grant : envelope;
}

/**
 * Decisions already made under a frozen grant, by tool name as asked: a pure function of the two, asked
 * once per call (a 1,000-step run asks the same few names a thousand times at start and as it runs).
 * At most MAX_REMEMBERED names a grant, so caller text cannot grow it.
 */
const remembered = new WeakMap<ResolvedEnvelope, Map<string, ToolDecision>>();
const MAX_REMEMBERED = 256;

function decideGrant(grant: ResolvedEnvelope, toolName: string): ToolDecision {
  if (!Object.isFrozen(grant)) return decideGrantNow(grant, toolName);
  const decisions = madeOnce(remembered, grant, () => new Map<string, ToolDecision>());
  let decision = decisions.get(toolName);
  if (decision === undefined) {
    decision = decideGrantNow(grant, toolName);
    if (decisions.size < MAX_REMEMBERED) decisions.set(toolName, decision);
  }
  return decision;
}

function decideGrantNow(grant: ResolvedEnvelope, toolName: string): ToolDecision {
  // A pattern (`*`, `mcp__s__*`) or a malformed MCP name is not a tool; refusing it keeps wildcards config-only.
  const isMcp = toolName.slice(0, MCP_PREFIX.length).toLowerCase() === MCP_PREFIX;
  const mcp = parseMcpToolName(toolName);
  if (toolName === '' || toolName.includes('*') || (isMcp && !mcp)) {
    return deny('unknown-tool', `denied: '${toolName}' is not a tool name`);
  }
  if (mcp && !grant.allowedMcpServers.includes(mcp.server.toLowerCase())) {
    return deny('server-not-allowed', `denied: server '${mcp.server}' not in AllowedMcpServers of ${envelopeReference(grant)}`);
  }
  const pattern = matchToolPattern(grant.allowedTools, toolName);
  if (pattern === null) {
    return deny('not-in-allowed-tools', `denied: not in AllowedTools of ${envelopeReference(grant)}`);
  }
  const via = pattern.endsWith('__*') ? ` via ${pattern}` : '';
  return Object.freeze({ allowed: true, rule: `granted by ${envelopeName(grant)}${via}` });
}

export function decideTool(envelope: ResolvedEnvelope | EffectiveEnvelope, toolName: string): ToolDecision {
  const decision = decideGrant(grantOf(envelope), toolName);
  if (!decision.allowed || !('grant' in envelope) || envelope.requested === null) return decision;
  return matchToolPattern(envelope.requested, toolName) === null
    ? deny('not-requested', 'denied: not in the requested tools (allowed-tools narrows the grant)')
    : decision;
}
