// toolResultFromMcp: MCP call results as tool results.
import { describe, expect, it } from 'vitest';
import { MCP_TOOL_ERROR_FALLBACK, toolResultFromMcp } from './tool-result-from-mcp.js';

describe('toolResultFromMcp', () => {
  it('joins text items with newlines', () => {
    const result = toolResultFromMcp({ content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] });
    expect(result).toEqual({ ok: true, output: 'one\ntwo' });
  });

  it('describes images, audio, links and blobs by type and never passes their bytes on', () => {
    const result = toolResultFromMcp({
      content: [
        { type: 'image', data: 'iVBORw0KGgo', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'demo://r/1', name: 'R1', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'demo://r/2', mimeType: 'application/octet-stream', blob: 'AAAA' } },
      ],
    });
    expect(result.ok && result.output.split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      { type: 'image', mimeType: 'image/png' },
      { type: 'audio', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'demo://r/1', name: 'R1', mimeType: 'text/plain' },
      { type: 'resource', uri: 'demo://r/2', mimeType: 'application/octet-stream' },
    ]);
    expect(JSON.stringify(result)).not.toContain('iVBORw0KGgo');
  });

  it('passes the text of an embedded text resource through', () => {
    const result = toolResultFromMcp({ content: [{ type: 'resource', resource: { uri: 'demo://r/3', text: 'inline body' } }] });
    expect(result).toEqual({ ok: true, output: 'inline body' });
  });

  it('uses structured content when no text came', () => {
    const result = toolResultFromMcp({ content: [], structuredContent: { temperature: 36 } });
    expect(result).toEqual({ ok: true, output: '{"temperature":36}' });
  });

  it('prefers the text over structured content when both came', () => {
    const result = toolResultFromMcp({ content: [{ type: 'text', text: 'warm' }], structuredContent: { temperature: 36 } });
    expect(result).toEqual({ ok: true, output: 'warm' });
  });

  it('turns isError into a tool failure carrying the text', () => {
    const result = toolResultFromMcp({ content: [{ type: 'text', text: 'no such file' }], isError: true });
    expect(result).toEqual({ ok: false, error: 'no such file' });
  });

  it('gives a tool failure without text a fixed message', () => {
    expect(toolResultFromMcp({ content: [], isError: true })).toEqual({ ok: false, error: MCP_TOOL_ERROR_FALLBACK });
  });
});
