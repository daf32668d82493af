// Turns an MCP `tools/call` result into a tool result: text items joined by newlines, other content
// as a short JSON description (never its bytes), `structuredContent` when no text came. A result with
// `isError` is a tool failure, data for the model, not an exception.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolResult } from '../tool.js';

type ContentItem = CallToolResult['content'][number];

export const MCP_TOOL_ERROR_FALLBACK = 'The MCP tool reported an error.';

export function toolResultFromMcp(result: CallToolResult): ToolResult {
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.filter((item) => item.type === 'text').map((item) => item.text);
  if (result.isError === true) {
    const error = texts.join('\n').trim();
    return { ok: false, error: error === '' ? MCP_TOOL_ERROR_FALLBACK : error };
  }
  const parts = content.map(describeContent);
  if (texts.length === 0 && result.structuredContent !== undefined) {
    parts.unshift(JSON.stringify(result.structuredContent));
  }
  return { ok: true, output: parts.join('\n') };
}

function describeContent(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio':
      return JSON.stringify({ type: item.type, mimeType: item.mimeType });
    case 'resource_link':
      return JSON.stringify({ type: item.type, uri: item.uri, name: item.name, mimeType: item.mimeType });
    case 'resource':
      // An embedded text resource is text the model can use; a blob is only described.
      return 'text' in item.resource && typeof item.resource.text === 'string'
        ? item.resource.text
        : JSON.stringify({ type: item.type, uri: item.resource.uri, mimeType: item.resource.mimeType });
    default:
      return JSON.stringify({ type: (item as { type: unknown }).type });
  }
}
