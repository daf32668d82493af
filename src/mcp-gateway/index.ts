// The MCP gateway (DESIGN.md §15): each caller's granted tools as an MCP server at /mcp. Only the
// composition root mounts it, and only when AppConfig:AI:McpGateway:Enabled is set.
export { registerMcpGateway, DRAIN_DEADLINE_MS, type McpGatewayOptions } from './routes.js';
export { MCP_PROTOCOL_VERSIONS } from './gateway-server.js';
