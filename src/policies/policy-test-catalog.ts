// Test support: the built-in tools plus a hypothetical MCP refund tool (a decimal amount, a required
// order id, a list of reasons), and a temporary folder of policy files.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinToolDescriptors } from '../tools/builtin/index.js';
import type { PolicyTool } from './policy-schema.js';

export const refundTool: PolicyTool = {
  server: 'payments',
  descriptor: {
    name: 'mcp__payments__refund',
    description: 'Refunds an order.',
    riskTier: 'High',
    isReadOnly: false,
    isConcurrencySafe: true,
    isDirectlyInvocable: true,
    reachesNetwork: true,
    operations: [
      {
        name: 'call',
        description: '',
        parameters: {
          type: 'object',
          required: ['order', 'amount'],
          properties: {
            order: { type: 'string' },
            amount: { type: 'number' },
            count: { type: 'integer' },
            reasons: { type: 'array', items: { type: 'string' } },
            customer: { type: 'object', properties: { id: { type: 'string' }, tier: { type: 'string' } }, required: ['id', 'tier'] },
          },
        },
      },
    ],
  },
};

export const testTools: readonly PolicyTool[] = [...builtinToolDescriptors.map((descriptor) => ({ descriptor, server: '' })), refundTool];

export function toolNamed(name: string): PolicyTool {
  const tool = testTools.find((candidate) => candidate.descriptor.name === name);
  if (tool === undefined) throw new Error(`no test tool ${name}`);
  return tool;
}

export interface PolicyFolder {
  readonly dir: string;
  write(name: string, text: string): Promise<string>;
  remove(): Promise<void>;
}

export async function policyFolder(): Promise<PolicyFolder> {
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-policies-'));
  return {
    dir,
    write: async (name, text) => {
      await writeFile(join(dir, name), text);
      return name;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
