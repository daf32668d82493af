// The tool plane's public surface: registry, the one governed call (used by every surface), parameter
// checks, the catalog, the built-ins and MCP servers, and the HTTP routes.
export type { Tool, ToolDescriptor, ToolOperation, ToolResult, ToolCallContext, ConversationScope, RiskTier, JsonSchema } from './tool.js';
export { toolSuccess, toolFailure, riskTiers } from './tool.js';
export { ToolRegistry, UNCONSTRUCTIBLE_TOOLS, type McpToolSource, type ToolCatalog } from './registry.js';
export {
  GovernedCalls,
  TOOL_FAILURE_MESSAGE,
  TOOL_CALL_REJECTED,
  type CallParked,
  type ApprovalAsk,
  type ApprovalVerdict,
  type Supervisor,
  type CallExecution,
  type CallRefusal,
  type GovernedCallOutcome,
  type GovernedCallRequest,
  type GovernedSurface,
  type GovernorDenial,
  type NotGrantedBeforeCall,
  type ToolInput,
} from './governed-call.js';
export { approvalToolCall, type ApprovalToolCall } from './approval-tool-call.js';
export { ParameterValidator, MAX_TOP_LEVEL_PARAMETERS, type ParameterCheck, type SchemaError } from './parameter-validator.js';
export { CatalogService } from './catalog-service.js';
export { registerToolRoutes, type ToolRoutesOptions } from './routes.js';
export { invokeTool, TOOL_NOT_FOUND_DETAIL, type Invocation, type InvokeDependencies } from './invoke-service.js';
export { toCatalogEntry, toDescription } from './catalog-entry.js';
export type { ToolInvocationRequest, ToolInvocationResponse } from './schemas.js';
