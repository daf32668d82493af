// Runs one agent conversation for a bundle run or a delegated sub-agent: the tools offered are the
// effective set (grant ∩ request ∩, for a sub-agent, its host agent's allowed-tools), every call the
// model asks for is one governed call on the bundle surface, and `delegate_task` runs a host agent
// under the SAME envelope one level deeper (at most MAX_DELEGATION_DEPTH levels), with no more tokens
// than the delegating conversation has left — found through the calling conversation's scope, which
// travels on the tool call's context. With no chat model configured the conversation fails with a
// caller-safe error; the run itself succeeds.
import { runConversation, type AgentEvent, type ConversationCheckpoint, type ConversationOutcome, type ExecuteTool } from '../loop/index.js';
import { meterChatModel, type ChatMessage, type ChatModel } from '../../models/index.js';
import type { IdGenerator } from '../../platform/clock/index.js';
import { narrowFurther, type EffectiveEnvelope, type ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { SpendAccount, SpendLedger } from '../../platform/spend/index.js';
import { DELEGATE_UNAVAILABLE, type DelegateRunner } from '../../tools/builtin/index.js';
import { toolFailure, toolSuccess, type ConversationScope, type GovernedCalls, type Supervisor } from '../../tools/index.js';
import { agentToolExecutor } from './agent-tool-executor.js';
import type { HostAgents } from './host-agents.js';
import { toAgentTool } from './to-agent-tool.js';

/** A bundle agent is depth 0; its sub-agent 1; that one's sub-agent 2, which may not delegate again. */
export const MAX_DELEGATION_DEPTH = 2;
/** conversationError when `ChatModel:Provider` is unset: the conversation fails, the run succeeds. */
export const NO_CHAT_MODEL_ERROR = 'No chat model is configured on this host.';
export const DELEGATION_TOO_DEEP = `Sub-agents may not delegate beyond ${MAX_DELEGATION_DEPTH} levels.`;
export const UNKNOWN_HOST_AGENT = 'No host agent has that id.';
export const NO_BUDGET_TO_DELEGATE = 'The conversation has no token budget left to give a sub-agent.';

export interface ConverseInput {
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  /** A host agent's own allowed-tools, narrowing further (null: none). */
  readonly narrowTo?: readonly string[] | null;
  readonly systemPrompt: string;
  readonly history: readonly ChatMessage[];
  readonly userMessages: readonly string[];
  readonly maxTurns: number;
  readonly tokenBudget: number;
  readonly depth: number;
  readonly signal: AbortSignal;
  readonly emit: (event: AgentEvent) => void;
  /** A run that can wait for a person (a bundle run, at depth 0): where calls needing approval are asked. */
  readonly supervisorFor?: (toolCallId: string) => Supervisor;
  /** The bundle's AGENT.md `require-approval:` (tightens only). */
  readonly requireApproval?: readonly string[] | 'all' | null;
  /** Whose spend its model calls (and its sub-agents') are, checked against the run's limits (DESIGN §16). */
  readonly spend?: SpendAccount;
  /** The bundle's AGENT.md id, when a bundle's own agent converses (its calls' policies read it). */
  readonly bundleId?: string;
  /** Where the calls are made: a bundle run (the default) or an eval case of the caller's own bundle (DESIGN §19: nobody waits for a person there). */
  readonly surface?: 'bundle' | 'eval';
  /** Told the name of every tool that ran and failed (an eval case is then errored). */
  readonly onToolFailed?: (toolName: string) => void;
  /** Told every call the model asks for, in order (an eval case's matches-recording). */
  readonly onToolCalled?: (toolName: string, operation: string) => void;
  /**
   * An eval case replaying its recording (DESIGN §19): the model that answers instead of the host's
   * (`replay: "all"`), and what answers the tool calls instead of the governed call, given the names of
   * the tools the conversation offers. Nothing is metered for a replayed model.
   */
  readonly replay?: { readonly model?: ChatModel; readonly executeTool: (offered: ReadonlySet<string>) => ExecuteTool };
  /** Goes on from a conversation parked for a decision; `delegatedUsage`: what its sub-agents had spent. */
  readonly resume?: { readonly checkpoint: ConversationCheckpoint; readonly delegatedUsage: { readonly inputTokens: number; readonly outputTokens: number } };
}

export interface AgentRuntimeOptions {
  readonly chatModel: ChatModel | null;
  readonly calls: GovernedCalls;
  readonly ids: IdGenerator;
  readonly hostAgents: HostAgents;
  /** Counts and checks spend for conversations given an account. */
  readonly spend?: SpendLedger;
  readonly limits: {
    readonly maxModelCallsPerTurn: number;
    readonly frameCeilingBytes: number;
    readonly maxToolResultBytes: number;
    readonly maxLifetimeTokens: number;
  };
  readonly log: { info(details: object, message: string): void };
}

export class AgentRuntime {
  readonly #options: AgentRuntimeOptions;

  constructor(options: AgentRuntimeOptions) {
    this.#options = options;
  }

  /** The conversation's outcome; `usage` includes every sub-agent it delegated to. */
  async converse(input: ConverseInput): Promise<ConversationOutcome> {
    const { chatModel, calls, limits } = this.#options;
    if (chatModel === null && input.replay?.model === undefined) return noModelOutcome();
    // A sub-agent narrows further by its host agent's own allowed-tools: offered and governed alike.
    const envelope = input.narrowTo ? narrowFurther(input.envelope, input.narrowTo) : input.envelope;
    const tools = await calls.registry.granted(envelope, input.signal);
    const delegated: UsageTally = { inputTokens: input.resume?.delegatedUsage.inputTokens ?? 0, outputTokens: input.resume?.delegatedUsage.outputTokens ?? 0 };
    // The loop's own usage so far, when resumed, is in its checkpoint; the tally counts this execution's calls.
    const own: UsageTally = { inputTokens: input.resume?.checkpoint.usage.inputTokens ?? 0, outputTokens: input.resume?.checkpoint.usage.outputTokens ?? 0 };
    const conversation: ConversationScope = {
      envelope: input.envelope,
      depth: input.depth,
      remainingTokens: () => input.tokenBudget - total(own) - total(delegated),
      addUsage: (usage) => {
        delegated.inputTokens += usage.inputTokens;
        delegated.outputTokens += usage.outputTokens;
      },
      ...(input.spend === undefined ? {} : { spend: input.spend }),
      ...(input.surface === undefined ? {} : { surface: input.surface }),
    };
    const ledger = this.#options.spend;
    const replayedModel = input.replay?.model;
    const model = replayedModel ?? (input.spend === undefined || ledger === undefined || chatModel === null ? chatModel : meterChatModel(chatModel, ledger, input.spend));
    if (model === null) return noModelOutcome();
    const outcome = await runConversation({
      model: tallyUsage(model, own),
      systemPrompt: input.systemPrompt,
      history: input.history,
      userMessages: input.userMessages,
      maxTurns: input.maxTurns,
      tools: tools.map(toAgentTool),
      executeTool: input.replay !== undefined ? input.replay.executeTool(new Set(tools.map((tool) => tool.descriptor.name))) : agentToolExecutor({
        calls,
        surface: input.surface ?? 'bundle',
        ownerId: input.ownerId,
        envelope,
        conversation,
        log: this.#options.log,
        ...(input.supervisorFor === undefined ? {} : { supervisorFor: input.supervisorFor }),
        ...(input.requireApproval === undefined ? {} : { requireApproval: input.requireApproval }),
        // The run's counters (policies) are the run's whatever the depth: a sub-agent's calls count in them.
        ...(input.spend === undefined ? {} : { runId: input.spend.runId }),
        ...(input.bundleId === undefined ? {} : { bundleId: input.bundleId }),
        ...(input.onToolFailed === undefined ? {} : { onFailed: input.onToolFailed }),
        ...(input.onToolCalled === undefined ? {} : { onCalled: input.onToolCalled }),
      }),
      limits: {
        maxModelCallsPerTurn: limits.maxModelCallsPerTurn,
        lifetimeTokenBudget: input.tokenBudget,
        frameCeilingBytes: limits.frameCeilingBytes,
        maxToolResultBytes: limits.maxToolResultBytes,
      },
      ids: this.#options.ids,
      signal: input.signal,
      emit: input.emit,
      ...(input.resume === undefined ? {} : { resume: input.resume.checkpoint }),
    });
    return {
      ...outcome,
      usage: {
        inputTokens: outcome.usage.inputTokens + delegated.inputTokens,
        outputTokens: outcome.usage.outputTokens + delegated.outputTokens,
      },
    };
  }

  /** What `delegate_task.run` does on this host (bound once at start-up). */
  readonly delegate: DelegateRunner = async (agent, task, context) => {
    const scope = context.conversation;
    if (scope === undefined) return toolFailure(DELEGATE_UNAVAILABLE);
    if (scope.depth >= MAX_DELEGATION_DEPTH) return toolFailure(DELEGATION_TOO_DEEP);
    const host = await this.#options.hostAgents.find(agent);
    if (host === undefined) return toolFailure(UNKNOWN_HOST_AGENT);
    // A sub-agent spends from its parent's budget: it is given what the parent has left, never more.
    const tokenBudget = Math.min(scope.remainingTokens(), this.#options.limits.maxLifetimeTokens);
    if (tokenBudget <= 0) return toolFailure(NO_BUDGET_TO_DELEGATE);
    const outcome = await this.converse({
      ownerId: context.ownerId,
      envelope: scope.envelope,
      narrowTo: host.manifest.allowedTools,
      systemPrompt: host.systemPrompt,
      history: [],
      userMessages: [task],
      maxTurns: 1,
      tokenBudget,
      depth: scope.depth + 1,
      signal: context.signal,
      emit: () => undefined,
      ...(scope.spend === undefined ? {} : { spend: scope.spend }),
      ...(scope.surface === undefined ? {} : { surface: scope.surface }),
    });
    scope.addUsage(outcome.usage);
    if (!outcome.conversationSucceeded) return toolFailure(outcome.conversationError ?? 'The sub-agent failed.');
    // Stopped on the spend limit (DESIGN §16): the task was not done; the delegating conversation's next call is refused too.
    if (outcome.budgetExhausted && outcome.conversationError !== null) return toolFailure(outcome.conversationError);
    return toolSuccess(outcome.finalResponse);
  };
}

interface UsageTally {
  inputTokens: number;
  outputTokens: number;
}

const total = (usage: UsageTally): number => usage.inputTokens + usage.outputTokens;

/** The same model, adding the usage each call reports to `tally` as it finishes. */
function tallyUsage(model: ChatModel, tally: UsageTally): ChatModel {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    async *stream(request) {
      for await (const part of model.stream(request)) {
        if (part.type === 'finish') {
          tally.inputTokens += part.usage.inputTokens;
          tally.outputTokens += part.usage.outputTokens;
        }
        yield part;
      }
    },
  };
}

function noModelOutcome(): ConversationOutcome {
  return {
    conversationSucceeded: false,
    finalResponse: '',
    turnCount: 0,
    totalToolInvocations: 0,
    budgetExhausted: false,
    conversationError: NO_CHAT_MODEL_ERROR,
    usage: { inputTokens: 0, outputTokens: 0 },
    newMessages: [],
  };
}
