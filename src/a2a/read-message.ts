// What an A2A message asks of a bundle agent (DESIGN §20), read from the SDK's parsed SendMessage:
// its text parts are the run's user messages (one turn each), its contextId names the conversation it
// continues; or — sent on a task waiting for a person — one data part `{ approvalId, decision, comment? }`
// that decides the waiting call. Everything else is refused with the protocol's errors before anything
// is looked up or started. The raw JSON was screened first (screen-request.ts): types and sizes hold.
import { Role, type SendMessageRequest } from '@a2a-js/sdk';
import { ContentTypeNotSupportedError, RequestMalformedError } from '@a2a-js/sdk/errors';

/** SPEC.md's conversationId rule, which an A2A contextId is. */
const CONTEXT_ID = /^[A-Za-z0-9_-]{1,200}$/;
/** SPEC.md's bound on a run's user messages. */
export const MAX_TEXT_PARTS = 100;
const MAX_COMMENT_LENGTH = 4000;

export interface Decision {
  readonly approvalId: string;
  readonly decision: 'Approve' | 'Reject';
  readonly comment: string | null;
}

export type MessageIntent =
  /** Start a run: its user messages, the conversation it continues (null: a new one), the task it names (a follow-up). */
  | { readonly kind: 'start'; readonly userMessages: readonly string[]; readonly contextId: string | null; readonly taskId: string | null }
  /** Decide the call a task waits on. */
  | { readonly kind: 'decide'; readonly taskId: string; readonly contextId: string | null; readonly decision: Decision };

export function readMessage(request: SendMessageRequest): MessageIntent {
  const message = request.message;
  if (message === undefined) throw new RequestMalformedError('params.message is required.');
  if (message.role !== Role.ROLE_USER) throw new RequestMalformedError('The message must have role ROLE_USER.');
  const contextId = message.contextId === '' ? null : message.contextId;
  if (contextId !== null && !CONTEXT_ID.test(contextId)) {
    throw new RequestMalformedError('contextId must be 1 to 200 characters of A-Z, a-z, 0-9, _ and -.');
  }
  const taskId = message.taskId === '' ? null : message.taskId;
  const texts: string[] = [];
  const data: unknown[] = [];
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'text') texts.push(content.value);
    else if (content?.$case === 'data') data.push(content.value);
    else if (content?.$case === 'raw' || content?.$case === 'url') {
      throw new ContentTypeNotSupportedError('File parts are not accepted: send text parts (or one data part deciding a waiting call).');
    } else throw new RequestMalformedError('Every part must carry text or data.');
  }
  if (data.length > 0) {
    if (texts.length > 0 || data.length > 1) throw new RequestMalformedError('A decision is one data part on its own.');
    if (taskId === null) throw new RequestMalformedError('A decision names the waiting task in message.taskId.');
    return { kind: 'decide', taskId, contextId, decision: decisionOf(data[0]) };
  }
  if (texts.length === 0) throw new RequestMalformedError('The message has no parts: send at least one text part.');
  if (texts.length > MAX_TEXT_PARTS) throw new RequestMalformedError(`The message has more than ${MAX_TEXT_PARTS} text parts.`);
  if (texts.some((text) => text.trim() === '')) throw new RequestMalformedError('A text part is empty.');
  return { kind: 'start', userMessages: texts, contextId, taskId };
}

function decisionOf(value: unknown): Decision {
  const refused = (): never => {
    throw new RequestMalformedError('A decision data part is { "approvalId": string, "decision": "Approve" | "Reject", "comment"?: string } and nothing else.');
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refused();
  const { approvalId, decision, comment, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof approvalId !== 'string' || approvalId === '' || approvalId.length > 200) return refused();
  if (decision !== 'Approve' && decision !== 'Reject') return refused();
  if (comment !== undefined && (typeof comment !== 'string' || comment.length > MAX_COMMENT_LENGTH)) return refused();
  return { approvalId, decision, comment: typeof comment === 'string' ? comment : null };
}
