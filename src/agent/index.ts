// Everything about an agent, in one place: `manifest/` reads an agent's definition (AGENT.md, nested
// skills, plugins — what a bundle uploads and a host agent folder holds), `loop/` runs a conversation
// (turns, the tool loop, budget, AG-UI frames; framework-free, its tools given as an argument), and
// `runtime/` runs one for a caller (every tool call one governed call, delegation to host agents).
// The only module other features import.
export * from './loop/index.js';
export * from './manifest/index.js';
export { AgentRuntime, MAX_DELEGATION_DEPTH, NO_CHAT_MODEL_ERROR, DELEGATION_TOO_DEEP, UNKNOWN_HOST_AGENT, NO_BUDGET_TO_DELEGATE, type ConverseInput, type AgentRuntimeOptions } from './runtime/agent-runtime.js';
export { HostAgents, type HostAgent } from './runtime/host-agents.js';
export { agentToolExecutor, type AgentToolExecutorOptions } from './runtime/agent-tool-executor.js';
export { toAgentTool } from './runtime/to-agent-tool.js';
