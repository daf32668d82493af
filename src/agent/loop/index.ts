// The conversation loop: turns, tool loop, budget, AG-UI-shaped frames. Framework-free; it imports
// only models and platform and receives its tools as arguments (an eslint zone). Re-exported by
// ../index.ts, which is what other features import.
export { runConversation } from './run-conversation.js';
export { toModelTools } from './to-model-tools.js';
export { TOOL_DENIED_CONTENT, TOOL_FAILED_CONTENT, TOOL_REJECTED_CONTENT, INVALID_ARGUMENTS_CONTENT } from './tool-result-content.js';
export { MODEL_CALL_LIMIT_ERROR } from './conversation-errors.js';
export { WITHHELD_ARGS_DELTA } from './frame-ceiling.js';
export { readToolArguments, type ToolArguments } from './read-tool-arguments.js';
export type { AgentEvent, AgentEventType } from './agent-event.js';
export type { AgentTool, AgentToolOperation } from './agent-tool.js';
export type { ExecuteTool, ToolCallRequest, ToolExecution } from './execute-tool.js';
export type { ConversationInput, ConversationLimits } from './conversation-input.js';
export type { ConversationOutcome } from './conversation-outcome.js';
export type { ConversationCheckpoint } from './conversation-checkpoint.js';
export type { PreparedToolCall } from './prepare-tool-calls.js';
