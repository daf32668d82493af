import { describe, expect, it } from 'vitest';
import { parseMcpToolName } from './mcp-tool-name.js';

describe('parseMcpToolName', () => {
  it.each([
    { name: 'mcp__s__t', expected: { server: 's', tool: 't' } },
    { name: 'mcp__everything__get-sum', expected: { server: 'everything', tool: 'get-sum' } },
    { name: 'mcp__Everything__Get-Sum', expected: { server: 'Everything', tool: 'Get-Sum' } },
    { name: 'MCP__s__t', expected: { server: 's', tool: 't' } },
    { name: 'mcp__s__a__b', expected: { server: 's', tool: 'a__b' } },
    { name: 'mcp__s___t', expected: { server: 's', tool: '_t' } },
    { name: 'mcp__s__*', expected: { server: 's', tool: '*' } },
  ])('splits $name into server and tool, keeping their spelling', ({ name, expected }) => {
    expect(parseMcpToolName(name)).toEqual(expected);
  });

  it.each(['mcp__s', 'mcp__', 'mcp____t', 'mcp__s__', 'clock', 'xmcp__s__t', 'mcp_s__t', ''])(
    'says %j is not an MCP tool name',
    (name) => {
      expect(parseMcpToolName(name)).toBeNull();
    },
  );
});
