import { describe, expect, it } from 'vitest';
import { toModelTools, toAgentTool } from '../agent/index.js';
import type { RiskTier, Tool } from '../tools/index.js';
import { toMcpTool } from './to-mcp-tool.js';

function tool(name: string, metadata: { riskTier?: RiskTier; isReadOnly?: boolean; reachesNetwork?: boolean; operations?: string[] } = {}): Tool {
  return {
    descriptor: {
      name,
      description: `The ${name} tool.`,
      operations: (metadata.operations ?? ['run']).map((op) => ({ name: op, description: `Does ${op}.`, parameters: { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false } })),
      riskTier: metadata.riskTier ?? 'Low',
      isReadOnly: metadata.isReadOnly ?? true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
      reachesNetwork: metadata.reachesNetwork ?? false,
    },
    invoke: () => Promise.resolve({ ok: true, output: '' }),
  };
}

describe('toMcpTool', () => {
  it('is the function a model is offered for the tool: its name, description and { operation, parameters } schema', () => {
    const catalogTool = tool('widget', { operations: ['make', 'break'] });
    const [offered] = toModelTools([toAgentTool(catalogTool)]);
    expect(toMcpTool(catalogTool)).toMatchObject({ name: 'widget', description: offered?.description, inputSchema: offered?.parameters });
    expect(toMcpTool(catalogTool)?.inputSchema).toMatchObject({ type: 'object', properties: { operation: { enum: ['make', 'break'] } }, required: ['operation'] });
  });

  it('annotates from the metadata: read-only, destructive for High and Critical, open-world for network tools', () => {
    expect(toMcpTool(tool('a'))?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(toMcpTool(tool('b', { riskTier: 'High', reachesNetwork: true }))?.annotations).toEqual({ readOnlyHint: true, destructiveHint: true, openWorldHint: true });
    expect(toMcpTool(tool('c', { riskTier: 'Critical', isReadOnly: false }))?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    expect(toMcpTool(tool('d', { riskTier: 'Medium', isReadOnly: false }))?.annotations?.destructiveHint).toBe(false);
  });

  it('leaves out a tool with no operation, as the model is never offered one', () => {
    expect(toMcpTool(tool('empty', { operations: [] }))).toBeUndefined();
  });
});
