import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../tools/tool.js';
import { builtinToolDescriptors } from '../tools/builtin/index.js';
import { asCedarSchema, loadCedar } from './cedar-module.js';
import { cedarSchemaFor, type PolicyTool } from './policy-schema.js';

const builtin = (name: string): PolicyTool => ({ descriptor: builtinToolDescriptors.find((d) => d.name === name)!, server: '' });

/** An MCP server's tool as the catalog holds it: one `call` operation, its input schema as found. */
const mcpLookup: PolicyTool = {
  server: 'crm',
  descriptor: {
    name: 'mcp__crm__lookup',
    description: 'Looks a customer up.',
    riskTier: 'Medium',
    isReadOnly: true,
    isConcurrencySafe: true,
    isDirectlyInvocable: true,
    reachesNetwork: true,
    operations: [
      {
        name: 'call',
        description: '',
        parameters: {
          type: 'object',
          required: ['customer', 'limit', 'filters'],
          properties: {
            customer: { type: 'string' },
            limit: { type: 'integer' },
            ratio: { type: 'number' },
            active: { type: 'boolean' },
            tags: { type: 'array', items: { type: 'string' } },
            address: { type: 'object', required: ['city'], properties: { city: { type: 'string' }, zip: { type: 'string' } } },
            filters: { type: 'object', additionalProperties: true },
            choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
            either: { anyOf: [{ type: 'string' }] },
            nullable: { type: ['string', 'null'] },
            untyped: { description: 'anything' },
            blobs: { type: 'array', items: { type: 'object' } },
            tuple: { type: 'array', items: [{ type: 'string' }] },
            nothing: { type: 'null' },
            __entity: { type: 'string' },
            'odd name': { type: 'string' },
          },
        },
      },
    ],
  },
};

describe('cedarSchemaFor', () => {
  it('declares the vocabulary of DESIGN §18: Caller with subject and String tags in Roles, Role, Tool, and the call group', () => {
    const schema = cedarSchemaFor([builtin('clock')]);
    expect(schema.Portcullis.entityTypes).toEqual({
      Caller: { memberOfTypes: ['Role'], shape: { type: 'Record', attributes: { subject: { type: 'String', required: true } } }, tags: { type: 'String' } },
      Role: { memberOfTypes: [] },
      Tool: {
        memberOfTypes: [],
        shape: {
          type: 'Record',
          attributes: { riskTier: { type: 'String', required: true }, server: { type: 'String', required: true }, readOnly: { type: 'Boolean', required: true } },
        },
      },
    });
    expect(Object.keys(schema.Portcullis.actions)).toEqual(['call', 'clock.convert', 'clock.now']);
    expect(schema.Portcullis.actions['call']).toEqual({});
  });

  it('gives every operation an action in the call group with the call facts and its typed arguments as context', () => {
    const action = cedarSchemaFor([builtin('clock')]).Portcullis.actions['clock.convert']!;
    expect(action.memberOf).toEqual([{ id: 'call' }]);
    expect(action.appliesTo?.principalTypes).toEqual(['Caller']);
    expect(action.appliesTo?.resourceTypes).toEqual(['Tool']);
    expect(action.appliesTo?.context).toEqual({
      type: 'Record',
      attributes: {
        operation: { type: 'String', required: true },
        surface: { type: 'String', required: true },
        bundleId: { type: 'String', required: true },
        run: {
          type: 'Record',
          required: true,
          attributes: { toolCalls: { type: 'Long', required: true }, callsOfThisTool: { type: 'Long', required: true }, spentMicroUsd: { type: 'Long', required: true } },
        },
        utcHour: { type: 'Long', required: true },
        arguments: {
          type: 'Record',
          required: true,
          attributes: { from: { type: 'String', required: false }, time: { type: 'String', required: true }, to: { type: 'String', required: true } },
        },
      },
    });
  });

  it('types built-in arguments from their schemas and leaves out free-form ones (memory value, http_fetch headers, json data)', () => {
    const actions = cedarSchemaFor([builtin('memory'), builtin('http_fetch'), builtin('json'), builtin('knowledge')]).Portcullis.actions;
    const args = (name: string) => actions[name]?.appliesTo?.context.attributes['arguments'];
    expect(args('memory.set')).toEqual({
      type: 'Record',
      required: true,
      attributes: { key: { type: 'String', required: true }, ttlSeconds: { type: 'Long', required: false } },
    });
    expect(args('http_fetch.get')).toEqual({ type: 'Record', required: true, attributes: { url: { type: 'String', required: true } } });
    expect(args('json.validate')).toEqual({ type: 'Record', required: true, attributes: {} });
    expect(args('knowledge.search')).toMatchObject({ attributes: { topK: { type: 'Long', required: false } } });
  });

  it('maps what maps in an MCP-like schema and leaves out oneOf, anyOf, free-form objects, type lists, untyped values and `__` names', () => {
    const args = cedarSchemaFor([mcpLookup]).Portcullis.actions['mcp__crm__lookup.call']?.appliesTo?.context.attributes['arguments'];
    expect(args).toEqual({
      type: 'Record',
      required: true,
      attributes: {
        active: { type: 'Boolean', required: false },
        address: { type: 'Record', required: false, attributes: { city: { type: 'String', required: true }, zip: { type: 'String', required: false } } },
        customer: { type: 'String', required: true },
        limit: { type: 'Long', required: true },
        'odd name': { type: 'String', required: false },
        ratio: { type: 'Extension', name: 'decimal', required: false },
        tags: { type: 'Set', element: { type: 'String' }, required: false },
      },
    });
  });

  it('is deterministic: the same catalog in any order gives the same schema, byte for byte', () => {
    const tools = [...builtinToolDescriptors.map((descriptor) => ({ descriptor, server: '' })), mcpLookup];
    const once = JSON.stringify(cedarSchemaFor(tools));
    expect(JSON.stringify(cedarSchemaFor([...tools].reverse()))).toBe(once);
    expect(JSON.stringify(cedarSchemaFor(tools))).toBe(once);
  });

  it('produces a schema Cedar accepts, for every built-in tool and an MCP tool', async () => {
    const cedar = await loadCedar();
    const schema = cedarSchemaFor([...builtinToolDescriptors.map((descriptor) => ({ descriptor, server: '' })), mcpLookup]);
    expect(cedar.checkParseSchema(asCedarSchema(schema))).toEqual({ type: 'success' });
  });

  it('refuses two tools that would make the same action (the registry never lets that happen)', () => {
    const clock = builtin('clock');
    const twin: ToolDescriptor = { ...clock.descriptor };
    expect(() => cedarSchemaFor([clock, { descriptor: twin, server: '' }])).toThrow(/clock\.convert/);
  });
});
