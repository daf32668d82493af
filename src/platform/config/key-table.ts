// Every configuration key under AppConfig, in reference order. The per-section tables in keys/
// are the only place a key is declared; the rows keep their literal types, so types.ts computes the
// configuration's type from this table.
import type { KeyEntry } from './key-entry.js';
import { a2aKeys } from './keys/a2a-keys.js';
import { approvalKeys } from './keys/approval-keys.js';
import { authKeys } from './keys/auth-keys.js';
import { bundleExecutionKeys } from './keys/bundle-execution-keys.js';
import { chatModelKeys } from './keys/chat-model-keys.js';
import { consoleKeys } from './keys/console-keys.js';
import { conversationKeys } from './keys/conversation-keys.js';
import { discoveryKeys } from './keys/discovery-keys.js';
import { envelopeKeys } from './keys/envelope-keys.js';
import { evaluationKeys } from './keys/evaluation-keys.js';
import { httpKeys } from './keys/http-keys.js';
import { idempotencyKeys } from './keys/idempotency-keys.js';
import { loggingKeys } from './keys/logging-keys.js';
import { mcpGatewayKeys } from './keys/mcp-gateway-keys.js';
import { mcpServerKeys } from './keys/mcp-server-keys.js';
import { observabilityKeys } from './keys/observability-keys.js';
import { policyKeys } from './keys/policy-keys.js';
import { rateLimitKeys } from './keys/rate-limit-keys.js';
import { scheduleKeys } from './keys/schedule-keys.js';
import { storageKeys } from './keys/storage-keys.js';
import { toolKeys } from './keys/tool-keys.js';
import { webhookKeys } from './keys/webhook-keys.js';
import { workflowKeys } from './keys/workflow-keys.js';

export const keyTable = [
  ...bundleExecutionKeys,
  ...authKeys,
  ...envelopeKeys,
  ...toolKeys,
  ...mcpServerKeys,
  ...mcpGatewayKeys,
  ...a2aKeys,
  ...conversationKeys,
  ...chatModelKeys,
  ...discoveryKeys,
  ...workflowKeys,
  ...approvalKeys,
  ...policyKeys,
  ...evaluationKeys,
  ...scheduleKeys,
  ...webhookKeys,
  ...rateLimitKeys,
  ...httpKeys,
  ...idempotencyKeys,
  ...loggingKeys,
  ...storageKeys,
  ...consoleKeys,
  ...observabilityKeys,
] as const satisfies readonly KeyEntry[];

/** One row of the table, with its literal key, codec and (where it has one) target. */
export type KeyRow = (typeof keyTable)[number];
