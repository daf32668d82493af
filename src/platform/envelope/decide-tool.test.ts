import { describe, expect, it } from 'vitest';
import { decideTool } from './decide-tool.js';
import { resolveEnvelope } from './resolve-envelope.js';
import { NO_BUDGET } from './budget.js';

const envelopeOf = (allowedTools: string[], allowedMcpServers: string[] = []) =>
  resolveEnvelope(
    { default: { allowedTools, allowedMcpServers, autonomyCeiling: 'Autonomous', autoApproveUpTo: 'None', budget: NO_BUDGET }, bySubject: {}, byRole: {} },
    { subjectId: null, roles: [], anonymous: false },
  );

describe('decideTool', () => {
  it.each([
    { name: 'a listed built-in tool is allowed', tools: ['clock'], servers: [], tool: 'clock', reason: null },
    { name: 'an unlisted built-in tool is denied', tools: ['clock'], servers: [], tool: 'text', reason: 'not-in-allowed-tools' },
    { name: 'built-in names match case-insensitively', tools: ['Clock'], servers: [], tool: 'CLOCK', reason: null },
    { name: 'a bare star grants no built-in tool', tools: ['*'], servers: [], tool: 'clock', reason: 'not-in-allowed-tools' },
    { name: 'a server wildcard never grants a built-in name', tools: ['mcp__clock__*'], servers: ['clock'], tool: 'clock', reason: 'not-in-allowed-tools' },
    { name: 'an exact server tool with its server is allowed', tools: ['mcp__s__t'], servers: ['s'], tool: 'mcp__s__t', reason: null },
    { name: 'a server tool is denied when its server is missing', tools: ['mcp__s__t'], servers: [], tool: 'mcp__s__t', reason: 'server-not-allowed' },
    { name: 'a server tool is denied when only other servers are listed', tools: ['mcp__s__t'], servers: ['other'], tool: 'mcp__s__t', reason: 'server-not-allowed' },
    { name: 'a server tool is denied when the tool is missing', tools: ['mcp__s__u'], servers: ['s'], tool: 'mcp__s__t', reason: 'not-in-allowed-tools' },
    { name: 'mcp__S grants every tool of S', tools: ['mcp__s'], servers: ['s'], tool: 'mcp__s__anything', reason: null },
    { name: 'mcp__S__* grants every tool of S', tools: ['mcp__s__*'], servers: ['s'], tool: 'mcp__s__anything', reason: null },
    { name: 'mcp__S grants no tool of another server', tools: ['mcp__s'], servers: ['s', 't'], tool: 'mcp__t__x', reason: 'not-in-allowed-tools' },
    { name: 'a server wildcard is not a name prefix', tools: ['mcp__s__*'], servers: ['s', 'ss'], tool: 'mcp__ss__t', reason: 'not-in-allowed-tools' },
    { name: 'a server prefix is not a server', tools: ['mcp__s__*'], servers: ['s'], tool: 'mcp__ss__t', reason: 'server-not-allowed' },
    { name: 'servers listed without tools are inert', tools: [], servers: ['s'], tool: 'mcp__s__t', reason: 'not-in-allowed-tools' },
    { name: 'servers listed beside only built-in tools are inert', tools: ['clock'], servers: ['s'], tool: 'mcp__s__t', reason: 'not-in-allowed-tools' },
    { name: 'a server wildcard without its server is inert', tools: ['mcp__s__*'], servers: [], tool: 'mcp__s__t', reason: 'server-not-allowed' },
    { name: 'server tool names keep their spelling but match case-insensitively', tools: ['mcp__everything__get-sum'], servers: ['Everything'], tool: 'mcp__Everything__Get-Sum', reason: null },
    { name: 'an upper-case wildcard entry matches', tools: ['MCP__EVERYTHING__*'], servers: ['everything'], tool: 'mcp__everything__get-sum', reason: null },
    { name: 'a tool part containing __ matches whole', tools: ['mcp__s__a__b'], servers: ['s'], tool: 'mcp__s__a__b', reason: null },
    { name: 'a tool part containing __ is not its prefix', tools: ['mcp__s__a__b'], servers: ['s'], tool: 'mcp__s__a', reason: 'not-in-allowed-tools' },
    { name: 'a prefix tool does not grant a longer __ name', tools: ['mcp__s__a'], servers: ['s'], tool: 'mcp__s__a__b', reason: 'not-in-allowed-tools' },
    { name: 'partial globs are not wildcards', tools: ['mcp__s__get*'], servers: ['s'], tool: 'mcp__s__get-sum', reason: 'not-in-allowed-tools' },
    { name: 'an empty name is not a tool', tools: ['clock'], servers: [], tool: '', reason: 'unknown-tool' },
    { name: 'a bare star is not a tool', tools: ['clock'], servers: [], tool: '*', reason: 'unknown-tool' },
    { name: 'a server pattern is not a tool', tools: ['mcp__s'], servers: ['s'], tool: 'mcp__s', reason: 'unknown-tool' },
    { name: 'a wildcard is not a tool even when granted', tools: ['mcp__s__*'], servers: ['s'], tool: 'mcp__s__*', reason: 'unknown-tool' },
    { name: 'an MCP name without a server is not a tool', tools: ['clock'], servers: [], tool: 'mcp____t', reason: 'unknown-tool' },
    { name: 'an MCP name without a tool is not a tool', tools: ['mcp__s'], servers: ['s'], tool: 'mcp__s__', reason: 'unknown-tool' },
  ])('$name', ({ tools, servers, tool, reason }) => {
    const decision = decideTool(envelopeOf(tools, servers), tool);
    if (reason === null) expect(decision.allowed).toBe(true);
    else expect(decision).toMatchObject({ allowed: false, reason });
  });

  it('checks the server before the tool list', () => {
    expect(decideTool(envelopeOf([], []), 'mcp__s__t')).toMatchObject({ allowed: false, reason: 'server-not-allowed' });
  });

  it('decides a name once per frozen grant and answers the same decision again, whatever the name', () => {
    const envelope = envelopeOf(['clock', 'mcp__s__*'], ['s']);
    const first = decideTool(envelope, 'clock');
    expect(decideTool(envelope, 'clock')).toBe(first);
    // Caller text past the remembered names is still decided, and decided right.
    for (let i = 0; i < 300; i += 1) expect(decideTool(envelope, `mcp__s__tool${i}`)).toMatchObject({ allowed: true, rule: expect.stringContaining('via mcp__s__*') as string });
    expect(decideTool(envelope, 'mcp__other__x')).toMatchObject({ allowed: false, reason: 'server-not-allowed' });
    expect(decideTool(envelope, 'text')).toMatchObject({ allowed: false, reason: 'not-in-allowed-tools' });
  });

  it('decides anew under a grant that is not frozen (it could change)', () => {
    const grant = { ...envelopeOf(['clock']), allowedTools: ['clock'] };
    expect(decideTool(grant, 'clock').allowed).toBe(true);
    grant.allowedTools.splice(0, 1, 'text');
    expect(decideTool(grant, 'clock')).toMatchObject({ allowed: false, reason: 'not-in-allowed-tools' });
  });
});
