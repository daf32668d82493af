// An uploaded bundle's agent answering turns outside a bundle run: what each case of an eval run with
// `subject: { handle }` is (DESIGN §19). The handle is the caller's own live one (foreign, unknown and
// expired alike are gone); the conversation is the bundle run's — AGENT.md and its skills as the
// system prompt, the requested tools narrowed by the run's envelope, `require-approval:`, delegation,
// policies (surface `eval`, the bundle's id) and spend (family `eval`, the eval run's) — except that
// nobody can wait for a person: a call that needs one is denied, as every eval case's is.
import type { AgentEvent, AgentRuntime, ConversationOutcome, ConverseInput } from '../agent/index.js';
import { narrowEnvelope, NO_BUDGET, type ResolvedEnvelope } from '../platform/envelope/index.js';
import type { BundleHandle } from './handles/bundle-handle.js';
import type { HandleStore } from './handles/handle-store.js';

export interface BundleTurnInput {
  readonly ownerId: string;
  readonly handle: string;
  /** The eval run's envelope (its starter's grant), narrowed here by the bundle's requested tools. */
  readonly envelope: ResolvedEnvelope;
  /** The eval run's job id: its spend and its policies' run counters. */
  readonly runId: string;
  readonly userMessages: readonly string[];
  readonly signal: AbortSignal;
  readonly emit: (event: AgentEvent) => void;
  readonly onToolFailed: (toolName: string) => void;
  readonly onToolCalled?: (toolName: string, operation: string) => void;
  /** A recorded case replayed (DESIGN §19): what answers instead of the model and the tools. */
  readonly replay?: ConverseInput['replay'];
}

export interface BundleTurnsOptions {
  readonly enabled: boolean;
  readonly handles: HandleStore;
  readonly runtime: AgentRuntime;
  /** Conversations:MaxLifetimeTokens: each case is a fresh conversation with the whole budget. */
  readonly maxLifetimeTokens: number;
}

export class BundleTurns {
  readonly #options: BundleTurnsOptions;

  constructor(options: BundleTurnsOptions) {
    this.#options = options;
  }

  /** BundleExecution:Enabled: an eval run may name a handle only when bundles run on this host. */
  get enabled(): boolean {
    return this.#options.enabled;
  }

  /** The caller's live handle with its TTL slid forward, or undefined (unknown, expired or foreign). */
  find(owner: { readonly ownerId: string }, handle: string): Promise<BundleHandle | undefined> {
    return this.#options.handles.touch(owner, handle);
  }

  /** One conversation of the bundle's agent over `userMessages`; 'handle-gone' when the handle expired or was deleted. */
  async converse(input: BundleTurnInput): Promise<ConversationOutcome | 'handle-gone'> {
    const { handles, runtime, maxLifetimeTokens } = this.#options;
    const owner = { ownerId: input.ownerId };
    await handles.slide(owner, input.handle);
    const leased = await handles.lease(owner, input.handle);
    if (leased === null) return 'handle-gone';
    try {
      const { manifest, systemPrompt } = leased.handle;
      return await runtime.converse({
        ownerId: input.ownerId,
        envelope: narrowEnvelope(input.envelope, manifest.allowedTools ?? undefined),
        systemPrompt,
        history: [],
        userMessages: input.userMessages,
        maxTurns: input.userMessages.length,
        tokenBudget: maxLifetimeTokens,
        depth: 0,
        signal: input.signal,
        emit: input.emit,
        requireApproval: manifest.requireApproval,
        spend: { ownerId: input.ownerId, family: 'eval', runId: input.runId, budget: input.envelope.budget ?? NO_BUDGET },
        bundleId: manifest.id,
        surface: 'eval',
        onToolFailed: input.onToolFailed,
        ...(input.onToolCalled === undefined ? {} : { onToolCalled: input.onToolCalled }),
        ...(input.replay === undefined ? {} : { replay: input.replay }),
      });
    } finally {
      leased.lease.release();
    }
  }
}
