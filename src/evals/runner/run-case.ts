// Executes one case × repeat: the subject's conversation through the agent runtime (tool calls through
// governed calls), then every assertion; llm-rubric is graded by the chat model. Never throws: a case that
// could not run — no model, an unresolved subject, a model or tool failure, its timeout, an unexpected
// error — is `errored` with a caller-safe reason, and the run goes on.
import { agentToolExecutor, runConversation, type ConversationLimits } from '../../agent/index.js';
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
  readonly log: { warn(details: object, message: string): void };
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
    const outcome = await runConversation({
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
        onFailed: (name) => failedTools.add(name),
        log: { info: () => undefined },
      }),
      limits: context.limits,
      ids: context.ids,
      signal,
      emit: (event) => {
        if (event.type === 'TOOL_CALL_START') toolsCalled.add(event.toolCallName.toLowerCase());
      },
    });
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
