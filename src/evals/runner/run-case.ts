// Executes one case × repeat: the subject's conversation through the agent runtime (tool calls through
// governed calls), then every assertion; llm-rubric is graded by the chat model. Never throws: a case that
// could not run — no model, an unresolved subject, a model or tool failure, its timeout, an unexpected
// error — is `errored` with a caller-safe reason, and the run goes on.
import { agentToolExecutor, runConversation, type AgentEvent, type ConversationLimits, type ConversationOutcome } from '../../agent/index.js';
import type { BundleTurns } from '../../bundles/index.js';
import type { ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { ChatModel } from '../../models/index.js';
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { Observation } from '../assertions/assertion.js';
import { GradingFailed } from '../assertions/grade-rubric.js';
import { costUsd, SPEND_LIMIT_REACHED, type Pricing } from '../../platform/spend/index.js';
import type { CaseDeadlines } from './case-deadline.js';
import type { CaseExecution, CaseResult } from './case-execution.js';
import { CaseRecord } from './case-record.js';
import type { GovernedCalls } from '../../tools/index.js';
import { judgeOutput } from './judge-output.js';
import type { ResolvedSubject } from './resolve-subject.js';
import { Replayer } from '../recording/replayer.js';
import type { ReplayMode } from '../recording/recording.js';

export const NO_CHAT_MODEL_ERROR = 'no chat model is configured (AppConfig:AI:ChatModel:Provider)';

export interface CaseContext {
  readonly model: ChatModel | null;
  readonly subject: ResolvedSubject;
  readonly calls: GovernedCalls;
  readonly ownerId: string;
  /** The eval run's job id (its policies' run counters). */
  readonly runId: string;
  readonly limits: ConversationLimits;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly pricing: Pricing;
  /** Aborted when the host shuts down. */
  readonly hostSignal: AbortSignal;
  /** Each case's signal: the host's and the case timeout (one host listener for the whole run). */
  readonly deadlines: CaseDeadlines;
  /** An uploaded bundle's turns (a run with `subject: { handle }`). */
  readonly bundles?: BundleTurns;
  /** How recorded cases are answered (StartEvalRunRequest.replay; default "none"). */
  readonly replay?: ReplayMode;
  readonly log: { warn(details: object, message: string): void };
}

export const HANDLE_GONE_ERROR = 'the bundle handle expired or was deleted; register the bundle again';
export const NO_BUNDLES_ERROR = 'bundle execution is not available on this host';

/** How the conversation's tool calls are answered and observed. */
interface CaseHooks {
  readonly emit: (event: AgentEvent) => void;
  readonly onFailed: (name: string) => void;
  readonly onCalled: (name: string, operation: string) => void;
  readonly replayer: Replayer | null;
  readonly replayAll: boolean;
}

/** The case as a turn of the caller's uploaded bundle (DESIGN §19). */
async function bundleTurn(
  subject: { readonly handle: string; readonly envelope: ResolvedEnvelope },
  messages: readonly string[],
  context: CaseContext,
  signal: AbortSignal,
  hooks: CaseHooks,
): Promise<ConversationOutcome | 'handle-gone' | 'no-bundles'> {
  if (context.bundles === undefined || !context.bundles.enabled) return 'no-bundles';
  const { replayer } = hooks;
  return context.bundles.converse({
    ownerId: context.ownerId,
    handle: subject.handle,
    envelope: subject.envelope,
    runId: context.runId,
    userMessages: messages,
    signal,
    emit: hooks.emit,
    onToolFailed: hooks.onFailed,
    onToolCalled: hooks.onCalled,
    ...(replayer === null ? {} : { replay: { ...(hooks.replayAll ? { model: replayer.model() } : {}), executeTool: (offered) => replayer.executeTool(offered) } }),
  });
}

/** The case as a conversation with the dataset's subject (a system prompt and the tools it asks for). */
function promptTurn(subject: Extract<ResolvedSubject, { kind: 'prompt' }>, model: ChatModel, messages: readonly string[], context: CaseContext, signal: AbortSignal, hooks: CaseHooks) {
  const { replayer } = hooks;
  return runConversation({
    model: replayer !== null && hooks.replayAll ? replayer.model() : model,
    systemPrompt: subject.systemPrompt,
    history: [],
    userMessages: messages,
    maxTurns: messages.length,
    tools: subject.tools,
    executeTool:
      replayer !== null
        ? replayer.executeTool(new Set(subject.tools.map((tool) => tool.name)))
        : agentToolExecutor({
            calls: context.calls,
            surface: 'eval',
            ownerId: context.ownerId,
            envelope: subject.envelope,
            runId: context.runId,
            onFailed: hooks.onFailed,
            onCalled: hooks.onCalled,
            log: { info: () => undefined },
          }),
    limits: context.limits,
    ids: context.ids,
    signal,
    emit: hooks.emit,
  });
}

export async function runCase(execution: CaseExecution, context: CaseContext): Promise<CaseResult> {
  const { dataset, evalCase } = execution;
  const record = new CaseRecord(execution, context.clock);
  const { subject } = context;
  // A recorded case replays as the run asks; a case without a recording runs as "none" (DESIGN §19).
  const mode = evalCase.recording === undefined ? 'none' : (context.replay ?? 'none');
  const replayer = evalCase.recording === undefined || mode === 'none' ? null : new Replayer(evalCase.recording, mode);
  const replayAll = mode === 'all';
  // Replaying every model answer needs no model, unless an assertion is graded by one.
  const model = context.model;
  if (model === null && (!replayAll || evalCase.assertions.some((a) => a.type === 'llm-rubric'))) return record.errored(NO_CHAT_MODEL_ERROR);
  if (!subject.ok) return record.errored(subject.error);
  const deadline = context.deadlines.open(evalCase.timeoutMs);
  const { signal } = deadline;
  try {
    const toolsCalled = new Set<string>();
    const failedTools = new Set<string>();
    const calls: { tool: string; operation: string }[] = [];
    const hooks: CaseHooks = {
      emit: (event) => {
        if (event.type === 'TOOL_CALL_START') toolsCalled.add(event.toolCallName.toLowerCase());
      },
      onFailed: (name) => void failedTools.add(name),
      onCalled: (tool, operation) => void calls.push({ tool, operation }),
      replayer,
      replayAll,
    };
    const outcome =
      subject.kind === 'bundle'
        ? await bundleTurn(subject, evalCase.messages, context, signal, hooks)
        : await promptTurn(subject, (model ?? replayer?.model())!, evalCase.messages, context, signal, hooks);
    if (outcome === 'handle-gone') return record.errored(HANDLE_GONE_ERROR);
    if (outcome === 'no-bundles') return record.errored(NO_BUNDLES_ERROR);
    const latencyMs = record.conversationEnded();
    record.addUsage(outcome.usage);
    record.output = outcome.finalResponse;
    const divergence = replayer?.divergence ?? null;
    if (divergence !== null) return record.errored(divergence);
    if (!outcome.conversationSucceeded) return record.errored(`the conversation failed: ${outcome.conversationError ?? 'unknown reason'}`);
    // The owner's spend limit stopped the conversation (DESIGN §16): the case could not be judged.
    if (outcome.budgetExhausted && outcome.conversationError === SPEND_LIMIT_REACHED) return record.errored(SPEND_LIMIT_REACHED);
    if (failedTools.size > 0) return record.errored(`a tool call failed (${[...failedTools].join(', ')})`);
    const seen: Observation = {
      output: record.output,
      toolsCalled,
      toolCalls: replayer?.calls ?? calls,
      latencyMs,
      costUsd: costUsd(record.tokens, context.pricing),
      ...(evalCase.recording === undefined ? {} : { recording: { steps: evalCase.recording.steps, modelReplayed: replayAll } }),
    };
    return record.judged(await judgeOutput(evalCase.assertions, seen, { model: model ?? replayer!.model(), signal, onUsage: (usage) => record.addUsage(usage) }));
  } catch (error) {
    if (error instanceof GradingFailed) {
      record.addUsage(error.usage);
      return record.errored(error.message);
    }
    if (context.hostSignal.aborted) return record.errored('the host shut down while the case ran');
    if (deadline.timedOut()) return record.errored(`the case did not finish within its timeout of ${evalCase.timeoutMs / 1000} s`);
    context.log.warn({ err: error, dataset: dataset.name, caseId: evalCase.id }, 'An eval case threw; it is reported as errored.');
    return record.errored('the case could not run (an unexpected error; the host log has the details)');
  } finally {
    deadline.close();
  }
}
