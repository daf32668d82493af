// Host-defined MCP servers exposed as catalog tools (`mcp__<server>__<tool>`, operation `call`).
export { McpServerManager, type McpServerManagerOptions, type McpServerStatus } from './mcp-server-manager.js';
export type { McpServerConnection, McpServerOptions } from './mcp-server-connection.js';
export { MCP_CALL_OPERATION, mcpToolName, type McpAnnotationOverrides } from './mcp-tool-descriptor.js';
export { MCP_CALL_CANCELLED, MCP_CALL_FAILED, MCP_CALL_TIMED_OUT } from './call-failure-texts.js';
export type { McpLog } from './mcp-log.js';
