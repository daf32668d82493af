// Conversations (SPEC.md RunBundleRequest.conversationId) in the storage port: created on first use
// and owned by that first caller — another caller naming the id gets 404 — kept for a sliding
// Conversations:Ttl, replayed as a window of recent messages, bounded by a lifetime token budget, and
// serialised across instances: a run holds its conversation from reading the history until it has
// written its turn back.
import type { ChatMessage } from '../../models/index.js';
import type { Clock } from '../../platform/clock/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import type { Storage } from '../../platform/storage/index.js';
import type { StorageLock } from '../../runs/index.js';
import { historyWindow } from './history-window.js';

const CLAIMS = 'conversation-claim';
const STATES = 'conversation';
/** Claims are global (whoever names an unused id first owns it), so they sit under no owner. */
const NO_OWNER = '';

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
  readonly #storage: Storage;
  readonly #clock: Clock;
  readonly #lock: StorageLock;
  readonly #limits: ConversationLimits;

  constructor(options: { storage: Storage; clock: Clock; lock: StorageLock; limits: ConversationLimits }) {
    this.#storage = options.storage;
    this.#clock = options.clock;
    this.#lock = options.lock;
    this.#limits = options.limits;
  }

  /** Claims an unused id for the caller, or confirms it is theirs; false when another caller owns it. */
  async claim(owner: Owner, conversationId: string): Promise<boolean> {
    const now = this.#clock.now();
    const claimed = await this.#storage.records.insert<{ ownerId: string }>({
      collection: CLAIMS,
      ownerId: NO_OWNER,
      id: conversationId,
      createdAt: now,
      expiresAt: now + this.#limits.ttlMs,
      data: { ownerId: owner.ownerId },
    });
    if (claimed.outcome !== 'exists') return true;
    if (claimed.record.data.ownerId !== owner.ownerId) return false;
    await this.#storage.records.touch(this.#claimKey(conversationId), this.#limits.ttlMs);
    return true;
  }

  /** Waits for the conversation (runs on one id take turns), then hands out its window and budget. */
  async open(owner: Owner, conversationId: string, signal: AbortSignal): Promise<ConversationSession> {
    const unlock = await this.#lock.acquire(JSON.stringify([owner.ownerId, conversationId]), signal);
    try {
      const key = { collection: STATES, ownerId: owner.ownerId, id: conversationId };
      const state = (await this.#storage.records.touch<ConversationState>(key, this.#limits.ttlMs))?.data ?? { messages: [], tokensUsed: 0 };
      return {
        history: historyWindow(state.messages, this.#limits.maxHistoryMessages, this.#limits.maxHistoryBytes),
        remainingTokens: this.#limits.maxLifetimeTokens - state.tokensUsed,
        commit: async (newMessages, tokens) => {
          const now = this.#clock.now();
          const messages = historyWindow([...state.messages, ...newMessages], this.#limits.maxHistoryMessages, this.#limits.maxHistoryBytes);
          await this.#storage.records.put<ConversationState>({
            ...key,
            createdAt: now,
            expiresAt: now + this.#limits.ttlMs,
            data: { messages, tokensUsed: state.tokensUsed + tokens },
          });
          await this.#storage.records.touch(this.#claimKey(conversationId), this.#limits.ttlMs);
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
    const [claims, states] = await Promise.all([this.#storage.records.sweep(CLAIMS), this.#storage.records.sweep(STATES)]);
    return claims.length + states.length;
  }

  #claimKey(conversationId: string): { collection: string; ownerId: string; id: string } {
    return { collection: CLAIMS, ownerId: NO_OWNER, id: conversationId };
  }
}
