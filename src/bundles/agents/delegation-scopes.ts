// What a `delegate_task` call needs to know about the run that made it — owner, envelope, nesting
// depth, the tokens its conversation has left, where to add the sub-agent's token usage — found through the call's own AbortSignal (the one
// object the governor hands a tool unchanged). A WeakMap, so a finished call leaves nothing behind.
import type { EffectiveEnvelope } from '../../platform/envelope/index.js';

export interface UsageTally {
  inputTokens: number;
  outputTokens: number;
}

export interface DelegationScope {
  readonly ownerId: string;
  readonly envelope: EffectiveEnvelope;
  /** 0 for a bundle's own agent, 1 for its sub-agent, … */
  readonly depth: number;
  /** Receives the usage of sub-agents this call runs. */
  readonly usage: UsageTally;
  /** Tokens the delegating conversation may still spend (its budget less its own and its sub-agents' usage). */
  remainingTokens(): number;
}

export class DelegationScopes {
  readonly #bySignal = new WeakMap<AbortSignal, DelegationScope>();

  bind(signal: AbortSignal, scope: DelegationScope): void {
    this.#bySignal.set(signal, scope);
  }

  find(signal: AbortSignal): DelegationScope | undefined {
    return this.#bySignal.get(signal);
  }
}
