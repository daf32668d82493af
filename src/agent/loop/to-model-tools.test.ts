import { describe, expect, it } from 'vitest';
import type { AgentTool } from './agent-tool.js';
import { toModelTools } from './to-model-tools.js';

const clock: AgentTool = {
  name: 'clock',
  description: 'Current time and time-zone conversion.',
  operations: [
    { name: 'now', description: 'The current time.', parameters: { type: 'object', properties: { timeZone: { type: 'string' } } } },
    { name: 'convert', description: 'Convert a time.', parameters: { type: 'object', required: ['time', 'to'], properties: { time: { type: 'string' }, to: { type: 'string' } } } },
  ],
};

describe('toModelTools', () => {
  it('offers one function per tool, named exactly as the catalog, taking { operation, parameters }', () => {
    const [spec] = toModelTools([clock]);
    expect(spec!.name).toBe('clock');
    expect(spec!.parameters).toEqual({
      type: 'object',
      properties: {
        operation: { type: 'string', enum: ['now', 'convert'], description: expect.any(String) },
        parameters: { type: 'object', description: expect.any(String) },
      },
      required: ['operation'],
      additionalProperties: false,
    });
  });

  it('keeps MCP spelling and lists every operation with its compact parameter schema in the description', () => {
    const specs = toModelTools([clock, { name: 'mcp__everything__get-sum', description: 'Adds.', operations: [{ name: 'call', description: 'Call it.', parameters: { type: 'object' } }] }]);
    expect(specs.map((s) => s.name)).toEqual(['clock', 'mcp__everything__get-sum']);
    const description = specs[0]!.description;
    expect(description.startsWith('Current time and time-zone conversion.\n')).toBe(true);
    expect(description).toContain(`- now: The current time. Parameters schema: ${JSON.stringify(clock.operations[0]!.parameters)}`);
    expect(description).toContain(`- convert: Convert a time. Parameters schema: ${JSON.stringify(clock.operations[1]!.parameters)}`);
  });

  it('offers the first of duplicate names only and leaves out tools without operations', () => {
    const specs = toModelTools([clock, { ...clock, description: 'second' }, { name: 'empty', description: 'none', operations: [] }]);
    expect(specs.map((s) => [s.name, s.description.split('\n')[0]])).toEqual([['clock', 'Current time and time-zone conversion.']]);
  });

  it('makes a tool\'s spec once and gives every later run that offers the same tool the same spec, not a copy', () => {
    const first = toModelTools([clock])[0]!;
    const again = toModelTools([{ name: 'calculator', description: 'Sums.', operations: [{ name: 'add', description: 'Adds.', parameters: { type: 'object' } }] }, clock]);
    expect(again[1]).toBe(first);
    expect(toModelTools([{ ...clock }])[0]).not.toBe(first);
    expect(toModelTools([{ ...clock }])[0]).toEqual(first);
  });

  it('offers nothing for an empty tool set', () => {
    expect(toModelTools([])).toEqual([]);
  });
});
