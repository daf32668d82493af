export { createDelegateTaskTool, DELEGATE_UNAVAILABLE, type DelegateRunner, type DelegateTaskTool } from './create-delegate-task-tool.js';
