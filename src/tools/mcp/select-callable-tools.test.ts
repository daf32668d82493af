// selectCallableTools: which listed MCP tools the catalog can offer.
import { describe, expect, it } from 'vitest';
import { recordingLog } from './mcp-test-servers.js';
import { selectCallableTools } from './select-callable-tools.js';

const inputSchema = { type: 'object' as const };

describe('selectCallableTools', () => {
  it('keeps well-formed names in listing order', () => {
    const listed = [{ name: 'get-sum', inputSchema }, { name: 'read_file', inputSchema }, { name: 'v1.search', inputSchema }];
    expect(selectCallableTools('s', listed, recordingLog()).map((tool) => tool.name)).toEqual(['get-sum', 'read_file', 'v1.search']);
  });

  it('skips malformed and repeated names with a warning', () => {
    const log = recordingLog();
    const listed = [{ name: 'has space', inputSchema }, { name: '', inputSchema }, { name: 'echo', inputSchema }, { name: 'echo', inputSchema }];
    expect(selectCallableTools('s', listed, log).map((tool) => tool.name)).toEqual(['echo']);
    expect(log.warnings().map((entry) => entry.object.reason)).toEqual(['malformed name', 'malformed name', 'listed twice']);
  });

  it('skips a tool that requires task-based execution, logged at info', () => {
    const log = recordingLog();
    const listed = [{ name: 'research', inputSchema, execution: { taskSupport: 'required' as const } }];
    expect(selectCallableTools('s', listed, log)).toEqual([]);
    expect(log.entries).toEqual([{ level: 'info', object: { server: 's', tool: 'research', reason: 'requires task-based execution' }, message: 'MCP tool skipped' }]);
  });
});
