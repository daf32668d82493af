// mcpToolDescriptor: an MCP tool definition as a catalog descriptor.
import { describe, expect, it } from 'vitest';
import { MCP_DESCRIPTION_MAX_CHARS, mcpToolDescriptor } from './mcp-tool-descriptor.js';

const inputSchema = {
  type: 'object' as const,
  properties: { message: { type: 'string' } },
  required: ['message'],
  $schema: 'http://json-schema.org/draft-07/schema#',
};

describe('mcpToolDescriptor', () => {
  it('names the tool mcp__<server>__<tool> keeping both spellings, with one call operation on the input schema', () => {
    const descriptor = mcpToolDescriptor('Everything', { name: 'get-Sum', description: 'Adds.', inputSchema });
    expect(descriptor.name).toBe('mcp__Everything__get-Sum');
    expect(descriptor.description).toBe('Adds.');
    expect(descriptor.operations).toHaveLength(1);
    expect(descriptor.operations[0]?.name).toBe('call');
    expect(descriptor.operations[0]?.parameters).toEqual({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
  });

  it('rates a tool without a read-only hint High and not read-only', () => {
    const descriptor = mcpToolDescriptor('s', { name: 't', inputSchema, annotations: { readOnlyHint: false } });
    expect(descriptor).toMatchObject({ riskTier: 'High', isReadOnly: false });
    expect(mcpToolDescriptor('s', { name: 't', inputSchema })).toMatchObject({ riskTier: 'High', isReadOnly: false });
  });

  it('rates a tool the server annotates read-only Medium and read-only', () => {
    const descriptor = mcpToolDescriptor('s', { name: 't', inputSchema, annotations: { readOnlyHint: true } });
    expect(descriptor).toMatchObject({ riskTier: 'Medium', isReadOnly: true });
  });

  it('lets the host override of read-only win over the server hint either way', () => {
    const distrusted = mcpToolDescriptor('s', { name: 't', inputSchema, annotations: { readOnlyHint: true } }, { readOnly: false });
    expect(distrusted).toMatchObject({ riskTier: 'High', isReadOnly: false });
    const vouched = mcpToolDescriptor('s', { name: 't', inputSchema }, { readOnly: true });
    expect(vouched).toMatchObject({ riskTier: 'Medium', isReadOnly: true });
  });

  it('marks every MCP tool concurrency-safe, directly invocable and reaching the network', () => {
    const descriptor = mcpToolDescriptor('s', { name: 't', inputSchema });
    expect(descriptor).toMatchObject({ isConcurrencySafe: true, isDirectlyInvocable: true, reachesNetwork: true });
  });

  it('bounds a long description and falls back to the title, then to a generated sentence', () => {
    const long = mcpToolDescriptor('s', { name: 't', inputSchema, description: 'x'.repeat(5_000) });
    expect(long.description).toHaveLength(MCP_DESCRIPTION_MAX_CHARS);
    expect(mcpToolDescriptor('s', { name: 't', inputSchema, description: ' ', title: 'Titled' }).description).toBe('Titled');
    expect(mcpToolDescriptor('s', { name: 't', inputSchema }).description).toBe('Tool t of MCP server s.');
  });
});
