// Conversations (SPEC.md RunBundleRequest.conversationId): created on first use and owned by that
// first caller — another caller naming the id gets 404 — kept for a sliding Conversations:Ttl,
// replayed as a window of recent messages, bounded by a lifetime token budget, and serialised: a run
// holds its conversation from reading the history until it has written its turn back.
import type { ChatMessage } from '../models/index.js';
import type { Clock } from '../platform/clock/index.js';
import { OwnedStore, type Owner } from '../platform/ownership/index.js';
import { MemoryTtlStore, type TtlStore } from '../platform/store/index.js';
import { historyWindow } from './history-window.js';
import { KeyedLock } from './keyed-lock.js';

export interface ConversationState {
  /** Redacted messages, newest last; only the replayable tail is kept. */
  readonly messages: readonly ChatMessage[];
  /** Input plus output tokens spent over the conversation's life. */
  readonly tokensUsed: number;
}

export interface ConversationLimits {
  readonly ttlMs: number;
  readonly maxHistoryMessages: number;
  readonly maxHistoryBytes: number;
  readonly maxLifetimeTokens: number;
}

/** One run's hold on its conversation. */
export interface ConversationSession {
  readonly history: readonly ChatMessage[];
  /** Tokens the conversation may still spend. */
  readonly remainingTokens: number;
  /** Appends the run's messages and spent tokens. */
  commit(newMessages: readonly ChatMessage[], tokens: number): Promise<void>;
  /** Lets the next run in; idempotent. */
  release(): void;
}

export class ConversationStore {
  /** conversationId → owner id: who used it first. Global, because ownership is what it decides. */
  readonly #claims: TtlStore<string>;
  readonly #states: OwnedStore<ConversationState>;
  readonly #lock = new KeyedLock();
  readonly #limits: ConversationLimits;

  constructor(options: { clock: Clock; limits: ConversationLimits }) {
    this.#claims = new MemoryTtlStore({ clock: options.clock });
    this.#states = new OwnedStore(new MemoryTtlStore({ clock: options.clock }));
    this.#limits = options.limits;
  }

  /** Claims an unused id for the caller, or confirms it is theirs; false when another caller owns it. */
  async claim(owner: Owner, conversationId: string): Promise<boolean> {
    const claimedBy = await this.#claims.touch(conversationId, this.#limits.ttlMs);
    if (claimedBy !== undefined) return claimedBy === owner.ownerId;
    await this.#claims.set(conversationId, owner.ownerId, this.#limits.ttlMs);
    return true;
  }

  /** Waits for the conversation (runs on one id take turns), then hands out its window and budget. */
  async open(owner: Owner, conversationId: string, signal: AbortSignal): Promise<ConversationSession> {
    const unlock = await this.#lock.acquire(JSON.stringify([owner.ownerId, conversationId]), signal);
    try {
      const state = (await this.#states.touch(owner, conversationId, this.#limits.ttlMs)) ?? { messages: [], tokensUsed: 0 };
      return {
        history: historyWindow(state.messages, this.#limits.maxHistoryMessages, this.#limits.maxHistoryBytes),
        remainingTokens: this.#limits.maxLifetimeTokens - state.tokensUsed,
        commit: async (newMessages, tokens) => {
          const messages = historyWindow([...state.messages, ...newMessages], this.#limits.maxHistoryMessages, this.#limits.maxHistoryBytes);
          await this.#states.put(owner, conversationId, { messages, tokensUsed: state.tokensUsed + tokens }, this.#limits.ttlMs);
          await this.#claims.touch(conversationId, this.#limits.ttlMs);
        },
        release: unlock,
      };
    } catch (error) {
      unlock();
      throw error;
    }
  }

  /** A run without conversationId: no history, the whole budget, nothing kept. */
  ephemeral(): ConversationSession {
    return { history: [], remainingTokens: this.#limits.maxLifetimeTokens, commit: async () => undefined, release: () => undefined };
  }

  async sweep(): Promise<number> {
    const [claims, states] = await Promise.all([this.#claims.sweep(), this.#states.sweep()]);
    return claims.length + states.length;
  }
}
