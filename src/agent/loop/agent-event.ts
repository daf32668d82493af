// The frames the conversation loop emits: SPEC.md "Bundle stream frames" minus the run frames
// (RUN_STARTED, RUN_FINISHED, RUN_ERROR), which belong to the caller that owns the run. AG-UI shaped,
// camelCase, discriminated on `type`; `withheld` is present only when true.

export type AgentEvent =
  | { readonly type: 'TEXT_MESSAGE_START'; readonly messageId: string; readonly role: 'assistant' }
  | { readonly type: 'TEXT_MESSAGE_CONTENT'; readonly messageId: string; readonly delta: string }
  | { readonly type: 'TEXT_MESSAGE_END'; readonly messageId: string }
  | { readonly type: 'TOOL_CALL_START'; readonly toolCallId: string; readonly toolCallName: string; readonly parentMessageId?: string }
  | { readonly type: 'TOOL_CALL_ARGS'; readonly toolCallId: string; readonly delta: string; readonly withheld?: true }
  | { readonly type: 'TOOL_CALL_END'; readonly toolCallId: string }
  | {
      readonly type: 'TOOL_CALL_RESULT';
      readonly toolCallId: string;
      readonly messageId: string;
      readonly content: string;
      readonly role: 'tool';
      readonly withheld?: true;
    };

export type AgentEventType = AgentEvent['type'];
