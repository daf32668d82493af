// Redaction for a stream of text deltas (model output). Emits at once everything that can no longer
// become part of a secret and holds back only the undecided tail; a private-key block is replaced as
// soon as its opening marker is seen and its body is dropped as it streams, never buffered.
import { findSecretMatches } from './find-secret-matches.js';
import { findHoldPoint } from './hold-point.js';
import { redactRange } from './redact-range.js';
import { REDACTED } from './redacted.js';
import type { SecretRule } from './secret-rule.js';
import { secretRules } from './secret-rules.js';
import { Suppression } from './suppression.js';
import { countRedaction } from './redaction-tally.js';

export interface StreamRedactorOptions {
  /**
   * Most characters ever held back. The default covers the longest secret any rule matches, so the
   * output equals redactText of the whole stream. When the undecided tail outgrows the limit it is
   * replaced by the marker, and text is dropped until every secret that may have begun there has ended.
   */
  readonly holdBackChars?: number;
}

/**
 * Raw characters kept before the pending text: for lookbehinds, anchors split across chunks and, while
 * suppressing, a block's opening marker (at most a rule's maxLength) that began in dropped text.
 */
const CONTEXT_CHARS = Math.max(...secretRules.filter((rule) => rule.blockEnd !== undefined).map((rule) => rule.maxLength)) + 16;

export const DEFAULT_HOLD_BACK_CHARS = Math.max(...secretRules.map((rule) => Math.max(rule.maxLength, rule.window))) + 2;

type Mode =
  | { readonly kind: 'text' }
  | { readonly kind: 'block'; readonly rule: SecretRule; readonly inside: Suppression }
  | { readonly kind: 'suppress'; readonly suppression: Suppression };

export class StreamRedactor {
  readonly #holdBackChars: number;
  #pending = '';
  #context = '';
  /** Stream offset of the first pending character. */
  #offset = 0;
  #mode: Mode = { kind: 'text' };

  constructor(options: StreamRedactorOptions = {}) {
    const holdBackChars = options.holdBackChars ?? DEFAULT_HOLD_BACK_CHARS;
    if (!Number.isInteger(holdBackChars) || holdBackChars < 1) throw new RangeError('holdBackChars must be a positive integer');
    this.#holdBackChars = holdBackChars;
  }

  /** Characters received but neither emitted nor dropped yet. */
  get heldChars(): number {
    return this.#pending.length;
  }

  /** Returns the text that is safe to emit now. */
  push(chunk: string): string {
    this.#pending += chunk;
    return this.#drain(false);
  }

  /** End of stream: redacts and returns the rest, and leaves the redactor ready for a new stream. */
  flush(): string {
    const rest = this.#drain(true);
    this.#pending = '';
    this.#context = '';
    this.#offset = 0;
    this.#mode = { kind: 'text' };
    return rest;
  }

  #drain(final: boolean): string {
    let out = '';
    for (;;) {
      const mode = this.#mode;
      if (mode.kind === 'block') {
        if (!this.#leaveBlock(mode.rule, mode.inside, final)) return out;
      } else if (mode.kind === 'suppress') {
        if (!this.#leaveSuppression(mode.suppression, final)) return out;
      } else {
        const { emitted, done } = this.#drainText(final);
        out += emitted;
        if (done) return out;
      }
    }
  }

  #drainText(final: boolean): { emitted: string; done: boolean } {
    const text = this.#context + this.#pending;
    const base = this.#context.length;
    const matches = findSecretMatches(text, base);
    if (final) {
      this.#consume(this.#pending.length);
      return { emitted: redactRange(text, matches, base, text.length), done: true };
    }
    const block = matches.find((match) => match.unterminated && match.accepted);
    if (block !== undefined) {
      // The rest of the block is a secret whatever follows: say so now and drop it as it arrives.
      const merged = matches.some((match) => match.accepted && match.secretStart < block.start && match.secretEnd > block.start);
      const emitted = redactRange(text, matches, base, block.start) + (merged ? '' : REDACTED);
      countRedaction(block.rule.id);
      const inside = Suppression.startingAt(text, block.markerEnd, this.#offset - base);
      this.#consume(block.markerEnd - base);
      this.#mode = { kind: 'block', rule: block.rule, inside };
      return { emitted, done: false };
    }
    const { hold, undecided } = findHoldPoint(text, base, matches);
    if (text.length - hold <= this.#holdBackChars) {
      this.#consume(hold - base);
      return { emitted: redactRange(text, matches, base, hold), done: true };
    }
    // The undecided tail outgrew the limit: replace it, then drop whatever may continue it.
    const emitted = redactRange(text, matches, base, undecided) + REDACTED;
    const suppression = Suppression.startingAt(text, undecided, this.#offset - base);
    this.#consume(this.#pending.length);
    this.#mode = { kind: 'suppress', suppression };
    return { emitted, done: false };
  }

  /**
   * Drops block text up to and including its end marker; false while the marker has not arrived.
   * A context rule anchored inside the block (`"private_key": "…`) may run on past the marker, so the
   * anchors seen inside are remembered and what may continue them is suppressed after the block.
   */
  #leaveBlock(rule: SecretRule, inside: Suppression, final: boolean): boolean {
    const closing = rule.blockEnd!;
    closing.lastIndex = 0;
    const found = closing.exec(this.#pending);
    const text = this.#context + this.#pending;
    const base = this.#context.length;
    inside.involveAnchors(text, base, base + (found?.index ?? this.#pending.length), this.#offset - base);
    if (found === null) {
      // Keep just enough to recognise an end marker split across chunks.
      this.#consume(final ? this.#pending.length : Math.max(0, this.#pending.length - rule.maxLength + 1));
      return false;
    }
    this.#consume(found.index + found[0].length);
    this.#mode = { kind: 'suppress', suppression: inside };
    return true;
  }

  /** Drops suppressed text; true once every secret that may have begun in it has provably ended. */
  #leaveSuppression(suppression: Suppression, final: boolean): boolean {
    const text = this.#context + this.#pending;
    const base = this.#context.length;
    const { exit, through } = suppression.exitIn(text, base, this.#offset - base, final);
    const block = suppression.blockOpening(text, base, exit ?? through);
    if (block !== undefined) {
      this.#consume(block.markerEnd - base);
      this.#mode = { kind: 'block', rule: block.rule, inside: suppression };
      return true;
    }
    if (exit === undefined) {
      this.#consume(through - base);
      return false;
    }
    this.#consume(exit - base);
    this.#mode = { kind: 'text' };
    return true;
  }

  /** Moves `count` pending characters behind the cursor, keeping the raw context. */
  #consume(count: number): void {
    this.#context = (this.#context + this.#pending.slice(0, count)).slice(-CONTEXT_CHARS);
    this.#pending = this.#pending.slice(count);
    this.#offset += count;
  }
}
