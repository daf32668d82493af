// The models feature's public surface: the chat-model contract, the provider factory and the
// Scripted provider. Other features import from here only.
export * from './chat-model.js';
export type { JsonSchema } from './json-schema.js';
export type { ModelLog } from './model-log.js';
export { createChatModel, type ChatModelDeps } from './create-chat-model.js';
export { promptBytes } from './limit-prompt-bytes.js';
export { createScriptedModel, type ScriptedModelOptions } from './scripted/create-scripted-model.js';
export { loadScript } from './scripted/load-script.js';
export type { ScriptRule, ScriptToolCall } from './scripted/script-rule.js';
export { observeChatModel, type ChatModelObservers } from './observe-chat-model.js';
export { meterChatModel, isSpendLimit } from './metered-chat-model.js';
