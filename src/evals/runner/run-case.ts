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
  readonly log: { warn(details: object, message: string): void };
}

export const HANDLE_GONE_ERROR = 'the bundle handle expired or was deleted; register the bundle again';
export const NO_BUNDLES_ERROR = 'bundle execution is not available on this host';

/** The case as a turn of the caller's uploaded bundle (DESIGN §19). */
async function bundleTurn(
  subject: { readonly handle: string; readonly envelope: ResolvedEnvelope },
  messages: readonly string[],
  context: CaseContext,
  signal: AbortSignal,
  emit: (event: AgentEvent) => void,
  onToolFailed: (name: string) => void,
): Promise<ConversationOutcome | 'handle-gone' | 'no-bundles'> {
  if (context.bundles === undefined || !context.bundles.enabled) return 'no-bundles';
  return context.bundles.converse({ ownerId: context.ownerId, handle: subject.handle, envelope: subject.envelope, runId: context.runId, userMessages: messages, signal, emit, onToolFailed });
}

export async function runCase(execution: CaseExecution, context: CaseContext): Promise<CaseResult> {
  const { dataset, evalCase } = execution;
  const record = new CaseRecord(execution, context.clock);
  const { model, subject } = context;
  if (model === null) return record.errored(NO_CHAT_MODEL_ERROR);
  if (!subject.ok) return record.errored(subject.error);
  const deadline = context.deadlines.open(evalCase.timeoutMs);
  const { signal } = deadline;
  try {
    const toolsCalled = new Set<string>();
    const failedTools = new Set<string>();
    const emit = (event: AgentEvent): void => {
      if (event.type === 'TOOL_CALL_START') toolsCalled.add(event.toolCallName.toLowerCase());
    };
    const onFailed = (name: string): void => void failedTools.add(name);
    const outcome = subject.kind === 'bundle' ? await bundleTurn(subject, evalCase.messages, context, signal, emit, onFailed) : await runConversation({
      model,
      systemPrompt: subject.systemPrompt,
      history: [],
      userMessages: evalCase.messages,
      maxTurns: evalCase.messages.length,
      tools: subject.tools,
      executeTool: agentToolExecutor({
        calls: context.calls,
        surface: 'eval',
        ownerId: context.ownerId,
        envelope: subject.envelope,
        runId: context.runId,
        onFailed,
        log: { info: () => undefined },
      }),
      limits: context.limits,
      ids: context.ids,
      signal,
      emit,
    });
    if (outcome === 'handle-gone') return record.errored(HANDLE_GONE_ERROR);
    if (outcome === 'no-bundles') return record.errored(NO_BUNDLES_ERROR);
    const latencyMs = record.conversationEnded();
    record.addUsage(outcome.usage);
    record.output = outcome.finalResponse;
    if (!outcome.conversationSucceeded) return record.errored(`the conversation failed: ${outcome.conversationError ?? 'unknown reason'}`);
    // The owner's spend limit stopped the conversation (DESIGN §16): the case could not be judged.
    if (outcome.budgetExhausted && outcome.conversationError === SPEND_LIMIT_REACHED) return record.errored(SPEND_LIMIT_REACHED);
    if (failedTools.size > 0) return record.errored(`a tool call failed (${[...failedTools].join(', ')})`);
    const seen: Observation = { output: record.output, toolsCalled, latencyMs, costUsd: costUsd(record.tokens, context.pricing) };
    return record.judged(await judgeOutput(evalCase.assertions, seen, { model, signal, onUsage: (usage) => record.addUsage(usage) }));
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
