// One rule of a Scripted chat-model script (DESIGN §8): when the last user message matches,
// reply with this text and/or ask for these tool calls.
export interface ScriptToolCall {
  readonly tool: string;
  readonly operation: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ScriptRule {
  /** Tested against the last user message; compiled once, when the script is loaded. */
  readonly when: RegExp;
  readonly reply?: string;
  readonly toolCalls?: readonly ScriptToolCall[];
}

/** What the Scripted model answers in one step. */
export interface ScriptedTurn {
  readonly text: string;
  readonly toolCalls: readonly ScriptToolCall[];
}
