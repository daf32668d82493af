// Public surface of the commands that talk to a running service through portcullis/client.
export { runEvalCommand } from './run-eval.js';
export { runWorkflowCommand } from './run-workflow.js';
export { runBundleRunCommand } from './run-bundle-run.js';
export { runApprovalsCommand } from './run-approvals.js';
export { runScheduleCommand } from './run-schedules.js';
export { runWebhookCommand } from './run-webhooks.js';
export { runMcpCommand } from './run-mcp.js';
export type { RemoteIo } from './remote-command.js';
