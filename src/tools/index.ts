// The tool plane's public surface: registry, governor (used by every surface), parameter checks,
// the built-ins and MCP servers, and the HTTP routes.
export type { Tool, ToolDescriptor, ToolOperation, ToolResult, ToolCallContext, RiskTier, JsonSchema } from './tool.js';
export { toolSuccess, toolFailure, riskTiers } from './tool.js';
export { ToolRegistry, UNCONSTRUCTIBLE_TOOLS, type McpToolSource } from './registry.js';
export { ToolGovernor, TOOL_FAILURE_MESSAGE, type GovernedCall, type GovernedOutcome, type GovernedSurface, type GovernorVerdict } from './governor.js';
export { ParameterValidator, MAX_TOP_LEVEL_PARAMETERS, type ParameterCheck, type SchemaError } from './parameter-validator.js';
export { checkToolCall, type ToolCallCheck } from './check-tool-call.js';
export { registerToolRoutes, type ToolRoutesOptions } from './routes.js';
export { invokeTool, INVOKE_ROLE } from './invoke-service.js';
export { toCatalogEntry, toDescription } from './catalog-entry.js';
