import { describe, expect, it } from 'vitest';
import type { EnvelopesConfig } from '../config/types.js';
import { decideTool } from './decide-tool.js';
import { narrowEnvelope } from './narrow-envelope.js';
import { resolveEnvelope } from './resolve-envelope.js';
import { NO_BUDGET } from './budget.js';

const config: EnvelopesConfig = {
  default: { allowedTools: ['clock', 'text', 'mcp__s__*', 'mcp__t__y'], allowedMcpServers: ['s', 't'], autonomyCeiling: 'Autonomous', autoApproveUpTo: 'None', budget: NO_BUDGET },
  bySubject: {},
  byRole: {},
};
const grant = resolveEnvelope(config, { subjectId: null, roles: [], anonymous: false });
const universe = ['clock', 'text', 'http_fetch', 'mcp__s__a', 'mcp__s__b', 'mcp__t__x', 'mcp__t__y', 'mcp__u__z'];
const granted = ['clock', 'text', 'mcp__s__a', 'mcp__s__b', 'mcp__t__y'];

describe('narrowEnvelope', () => {
  it.each([
    { name: 'an absent request does not narrow', requested: undefined, effective: null, allowed: granted },
    { name: 'an empty request allows nothing', requested: [], effective: [], allowed: [] },
    { name: 'unknown names are ignored', requested: ['clock', 'no_such_tool'], effective: ['clock'], allowed: ['clock'] },
    { name: 'names match case-insensitively', requested: ['CLOCK', ' Text '], effective: ['clock', 'text'], allowed: ['clock', 'text'] },
    { name: 'a server wildcard request keeps the granted wildcard', requested: ['mcp__s__*'], effective: ['mcp__s__*'], allowed: ['mcp__s__a', 'mcp__s__b'] },
    { name: 'the short server form is a wildcard too', requested: ['mcp__s'], effective: ['mcp__s__*'], allowed: ['mcp__s__a', 'mcp__s__b'] },
    { name: "a wildcard request narrows to the server's granted tools", requested: ['mcp__t__*'], effective: ['mcp__t__y'], allowed: ['mcp__t__y'] },
    { name: 'a request for an ungranted server tool gives nothing for it', requested: ['mcp__t__x'], effective: [], allowed: [] },
    { name: 'one tool of a wildcard-granted server narrows to that tool', requested: ['mcp__s__a'], effective: ['mcp__s__a'], allowed: ['mcp__s__a'] },
    { name: 'a request cannot widen to an ungranted tool', requested: ['http_fetch', 'clock'], effective: ['clock'], allowed: ['clock'] },
    { name: 'a request cannot widen to an ungranted server', requested: ['mcp__u__*', 'mcp__u__z'], effective: [], allowed: [] },
    { name: 'a bare star is not "everything"', requested: ['*'], effective: [], allowed: [] },
    { name: 'requesting everything granted changes nothing', requested: [...universe, 'mcp__s__*'], effective: ['clock', 'mcp__s__*', 'mcp__t__y', 'text'], allowed: granted },
  ])('$name', ({ requested, effective, allowed }) => {
    const narrowed = narrowEnvelope(grant, requested);
    expect(narrowed.requested).toEqual(effective);
    for (const tool of universe) expect(decideTool(narrowed, tool).allowed, tool).toBe(allowed.includes(tool));
  });

  it('leaves the grant, its servers and its ceiling untouched', () => {
    const narrowed = narrowEnvelope(grant, ['clock']);
    expect(narrowed.grant).toBe(grant);
    expect(Object.isFrozen(narrowed)).toBe(true);
  });

  it.each([
    { tool: 'text', reason: 'not-requested' },
    { tool: 'mcp__s__b', reason: 'not-requested' },
    { tool: 'http_fetch', reason: 'not-in-allowed-tools' },
    { tool: 'mcp__u__z', reason: 'server-not-allowed' },
  ])('reports $reason for $tool when the request is clock and mcp__s__a', ({ tool, reason }) => {
    expect(decideTool(narrowEnvelope(grant, ['clock', 'mcp__s__a']), tool)).toMatchObject({ allowed: false, reason });
  });
});
