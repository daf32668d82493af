// The conversation loop (DESIGN.md §5): turns in order, each one user message answered including
// its tool loop; streaming model calls whose text is relayed as it arrives; tool calls executed one
// after another through the caller's executeTool; per-turn model-call bound and lifetime token
// budget. Framework-free: it sees no request, config, registry or store, only its input.
//
// Decisions:
// - Messages beyond `maxTurns` are not answered and not recorded; that is a success.
// - The budget and the per-turn bound gate the NEXT model call only: tool calls a model asked for
//   always run, so every stored assistant tool call is followed by its result. Budget spent → stop
//   gracefully (`budgetExhausted`, still succeeded); bound reached while the model still wants tools
//   → conversation failure with MODEL_CALL_LIMIT_ERROR, later turns are not answered.
// - A ChatModelError is a conversation failure with its caller-safe message; cancellation rejects;
//   anything else thrown (a bug) propagates. A model call refused on the owner's spend limit
//   (`spend-limit`, DESIGN §16) stops gracefully like the token budget (`budgetExhausted`, still
//   succeeded) with that refusal as `conversationError`.
// - A tool call a person must approve stops the conversation where it is (DESIGN.md §13): the
//   outcome's `parked` is a checkpoint of plain data; the same input with `resume` set to it makes the
//   decided call again (its start, args and end frames are not sent twice) and goes on.
import { ChatModelError, type ChatMessage, type ChatRequest } from '../../models/index.js';
import { redactText } from '../../platform/redaction/index.js';
import { abortReason as abortError, throwIfAborted } from '../../platform/abort/index.js';
import type { ConversationInput } from './conversation-input.js';
import type { ConversationOutcome } from './conversation-outcome.js';
import { MODEL_CALL_LIMIT_ERROR } from './conversation-errors.js';
import { indexTools } from './index-tools.js';
import type { ConversationCheckpoint } from './conversation-checkpoint.js';
import { prepareToolCalls, type PreparedToolCall } from './prepare-tool-calls.js';
import { runToolCall } from './run-tool-call.js';
import { streamModelStep, type ModelStep } from './stream-model-step.js';
import { toModelTools } from './to-model-tools.js';
import { Transcript } from './transcript.js';

/** conversationError for a ChatModelError that carries no message. */
const MODEL_FAILED_ERROR = 'The chat model failed.';

interface RunState {
  readonly input: ConversationInput;
  readonly tools: ReturnType<typeof indexTools>;
  readonly request: Omit<ChatRequest, 'signal' | 'messages'>;
  readonly prefix: readonly ChatMessage[];
  readonly transcript: Transcript;
  readonly usedToolCallIds: Set<string>;
  readonly usage: { inputTokens: number; outputTokens: number };
  toolInvocations: number;
  turnCount: number;
  /**
   * Last non-empty relayed (redacted) assistant text of any turn so far: a later turn that produces
   * none (failed, or stopped on the budget) does not blank it (SPEC.md: empty only when no turn
   * produced one).
   */
  turnText: string;
}

type TurnEnd =
  | { readonly kind: 'answered' }
  | { readonly kind: 'budget-exhausted'; readonly error?: string }
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'parked'; readonly step: ConversationCheckpoint['step'] };

/** A model step whose tool calls are being made: which call comes next, and the turn's position. */
interface StepInProgress {
  readonly turnIndex: number;
  readonly modelCalls: number;
  readonly calls: readonly PreparedToolCall[];
  readonly from: number;
  readonly parentMessageId: string | undefined;
  /** The call at `from` already had its start, args and end frames sent. */
  readonly announced: boolean;
}

export async function runConversation(input: ConversationInput): Promise<ConversationOutcome> {
  assertValidInput(input);
  throwIfAborted(input.signal);
  const state = startState(input);
  let next = 0;
  const resume = input.resume;
  if (resume !== undefined) {
    const { step } = resume;
    next = step.turnIndex + 1;
    const end = await runTurn(state, { ...step, from: step.waiting, announced: true });
    if (end.kind !== 'answered') return outcome(state, end);
  }
  for (const [offset, userMessage] of input.userMessages.slice(next, input.maxTurns).entries()) {
    // A turn the budget cannot start is not begun: not counted, its message not recorded.
    if (budgetSpent(state)) return outcome(state, { kind: 'budget-exhausted' });
    state.turnCount += 1;
    state.transcript.add({ role: 'user', content: userMessage }, { role: 'user', content: redactText(userMessage) });
    const end = await runTurn(state, next + offset);
    if (end.kind !== 'answered') return outcome(state, end);
  }
  return outcome(state, { kind: 'answered' });
}

/** One turn: model steps and their tool calls until the model answers; or, resumed, from a step's waiting call. */
async function runTurn(state: RunState, at: number | StepInProgress): Promise<TurnEnd> {
  const { input } = state;
  let first = 0;
  if (typeof at !== 'number') {
    const parked = await runCalls(state, at);
    if (parked !== null) return parked;
    first = at.modelCalls;
  }
  const turnIndex = typeof at === 'number' ? at : at.turnIndex;
  for (let modelCalls = first; ; modelCalls += 1) {
    if (modelCalls >= input.limits.maxModelCallsPerTurn) return { kind: 'failed', error: MODEL_CALL_LIMIT_ERROR };
    if (budgetSpent(state)) return { kind: 'budget-exhausted' };
    const step = await callModel(state);
    if ('stopped' in step) return { kind: 'budget-exhausted', error: step.stopped };
    if ('error' in step) return { kind: 'failed', error: step.error };
    state.usage.inputTokens += step.usage.inputTokens;
    state.usage.outputTokens += step.usage.outputTokens;
    if (step.relayedText !== '') state.turnText = step.relayedText;
    const toolCalls = prepareToolCalls(step.toolCalls, state.usedToolCallIds, input.ids);
    recordAssistant(state, step, toolCalls);
    if (toolCalls.length === 0) return { kind: 'answered' };
    state.toolInvocations += toolCalls.length;
    const parked = await runCalls(state, { turnIndex, modelCalls: modelCalls + 1, calls: toolCalls, from: 0, parentMessageId: step.messageId, announced: false });
    if (parked !== null) return parked;
  }
}

/** Makes a step's tool calls from `from` on, each result recorded; stops at a call that waits for a person. */
async function runCalls(state: RunState, step: StepInProgress): Promise<TurnEnd | null> {
  const { input } = state;
  for (let index = step.from; index < step.calls.length; index += 1) {
    const call = step.calls[index]!;
    const content = await runToolCall(
      call,
      {
        tools: state.tools,
        executeTool: input.executeTool,
        ids: input.ids,
        emit: input.emit,
        signal: input.signal,
        frameCeilingBytes: input.limits.frameCeilingBytes,
        maxToolResultBytes: input.limits.maxToolResultBytes,
        parentMessageId: step.parentMessageId,
      },
      step.announced && index === step.from,
    );
    if (typeof content !== 'string') {
      const { turnIndex, modelCalls, calls, parentMessageId } = step;
      return { kind: 'parked', step: { turnIndex, modelCalls, calls, waiting: index, parentMessageId, approvalId: content.approvalId } };
    }
    state.transcript.add(
      { role: 'tool', toolCallId: call.toolCallId, toolName: call.call.name, content },
      { role: 'tool', toolCallId: call.toolCallId, toolName: call.redacted.name, content },
    );
  }
  return null;
}

async function callModel(state: RunState): Promise<ModelStep | { readonly error: string } | { readonly stopped: string }> {
  const { input } = state;
  throwIfAborted(input.signal);
  try {
    return await streamModelStep({
      model: input.model,
      request: { ...state.request, messages: [...state.prefix, ...state.transcript.live] },
      signal: input.signal,
      emit: input.emit,
      ids: input.ids,
    });
  } catch (error) {
    if (input.signal.aborted) throw abortError(input.signal);
    if (error instanceof ChatModelError && error.code === 'spend-limit') return { stopped: error.message };
    if (error instanceof ChatModelError) return { error: redactText(error.message) || MODEL_FAILED_ERROR };
    throw error;
  }
}

/** A step with neither text nor tool calls adds nothing (providers refuse empty assistant turns). */
function recordAssistant(state: RunState, step: ModelStep, calls: readonly PreparedToolCall[]): void {
  if (step.text === '' && calls.length === 0) return;
  const live = calls.map((c) => ({ id: c.toolCallId, name: c.call.name, arguments: c.call.arguments }));
  const stored = calls.map((c) => c.redacted);
  state.transcript.add(
    { role: 'assistant', content: step.text, ...(calls.length > 0 ? { toolCalls: live } : {}) },
    { role: 'assistant', content: step.relayedText, ...(calls.length > 0 ? { toolCalls: stored } : {}) },
  );
}

function budgetSpent(state: RunState): boolean {
  return state.usage.inputTokens + state.usage.outputTokens >= state.input.limits.lifetimeTokenBudget;
}

function startState(input: ConversationInput): RunState {
  const { maxOutputTokens, temperature } = input.limits;
  const resume = input.resume;
  const transcript = new Transcript();
  // Resumed: the redacted messages so far are what the model is sent (as history would replay them).
  for (const message of resume?.messages ?? []) transcript.add(message);
  return {
    input,
    tools: indexTools(input.tools),
    request: {
      tools: toModelTools(input.tools),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...(temperature === undefined ? {} : { temperature }),
    },
    prefix: [...(input.systemPrompt === '' ? [] : [{ role: 'system', content: input.systemPrompt } as const]), ...input.history],
    transcript,
    usedToolCallIds: new Set(resume?.usedToolCallIds ?? []),
    usage: { inputTokens: resume?.usage.inputTokens ?? 0, outputTokens: resume?.usage.outputTokens ?? 0 },
    toolInvocations: resume?.toolInvocations ?? 0,
    turnCount: resume?.turnCount ?? 0,
    turnText: resume?.turnText ?? '',
  };
}

function outcome(state: RunState, end: TurnEnd): ConversationOutcome {
  const parked: ConversationCheckpoint | undefined =
    end.kind === 'parked'
      ? {
          messages: state.transcript.stored(),
          usedToolCallIds: [...state.usedToolCallIds],
          usage: { ...state.usage },
          toolInvocations: state.toolInvocations,
          turnCount: state.turnCount,
          turnText: state.turnText,
          step: end.step,
        }
      : undefined;
  return {
    ...(parked === undefined ? {} : { parked }),
    conversationSucceeded: end.kind !== 'failed',
    finalResponse: state.turnText,
    turnCount: state.turnCount,
    totalToolInvocations: state.toolInvocations,
    budgetExhausted: end.kind === 'budget-exhausted',
    conversationError: end.kind === 'failed' || end.kind === 'budget-exhausted' ? (end.error ?? null) : null,
    usage: { ...state.usage },
    newMessages: state.transcript.stored(),
  };
}

/** Limits out of range are a caller bug (config and request validation own them), not a run outcome. */
function assertValidInput(input: ConversationInput): void {
  const { maxModelCallsPerTurn, frameCeilingBytes, lifetimeTokenBudget } = input.limits;
  if (!Number.isInteger(input.maxTurns) || input.maxTurns < 1) throw new RangeError('maxTurns must be an integer ≥ 1');
  if (!Number.isInteger(maxModelCallsPerTurn) || maxModelCallsPerTurn < 1) throw new RangeError('maxModelCallsPerTurn must be an integer ≥ 1');
  if (!(frameCeilingBytes >= 0)) throw new RangeError('frameCeilingBytes must be ≥ 0');
  if (!(input.limits.maxToolResultBytes >= 1)) throw new RangeError('maxToolResultBytes must be ≥ 1');
  if (Number.isNaN(lifetimeTokenBudget)) throw new RangeError('lifetimeTokenBudget must be a number');
}
