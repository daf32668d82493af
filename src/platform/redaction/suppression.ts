// What a stream must keep dropping after it replaced text by the marker (an over-long undecided tail,
// a private-key block): every rule that may have a secret running on from the replaced text, and the
// stream offset by which it must have ended. Text is dropped until a character no involved secret can
// contain, or until that offset.
import { findSecretMatches, type SecretMatch } from './find-secret-matches.js';
import { findPartialAnchor } from './partial-anchor.js';
import type { SecretRule } from './secret-rule.js';
import { secretRules } from './secret-rules.js';

const blockRules = secretRules.filter((rule) => rule.blockEnd !== undefined);

interface Anchor {
  readonly index: number;
  readonly length: number;
  readonly rule: SecretRule;
}

export class Suppression {
  readonly #rules = new Set<SecretRule>();
  /** Stream offset at which every involved secret has ended. */
  #until = 0;
  /** Stream offset where the last involved anchor ends: a stop character inside an anchor stops nothing. */
  #anchorsEnd = 0;
  /** Stream offset where suppression began; anchors before it were decided in text mode. */
  #from = 0;

  /** Involves every anchor in `text` from `from` on; `textOffset` is the stream offset of `text[0]`. */
  static startingAt(text: string, from: number, textOffset: number): Suppression {
    const suppression = new Suppression();
    suppression.#from = textOffset + from;
    suppression.involveAnchors(text, from, text.length, textOffset);
    return suppression;
  }

  /** Involves the anchors that start in [from, to) of `text`. */
  involveAnchors(text: string, from: number, to: number, textOffset: number): void {
    for (const anchor of anchorsIn(text, from)) {
      if (anchor.index < to) this.#involve(anchor.rule, textOffset + anchor.index, anchor.length);
    }
  }

  /**
   * Walks `text` from `from`, involving anchors as it goes. Returns where suppression may end, or
   * how far the text is certainly suppressed (`through`); an anchor cut off by the end of the text is
   * left for the next chunk to resolve (unless the stream has ended), so suppression never ends inside one.
   */
  exitIn(text: string, from: number, textOffset: number, final: boolean): { readonly exit?: number; readonly through: number } {
    const scanFrom = Math.max(0, this.#from - textOffset);
    const anchors = anchorsIn(text, scanFrom);
    const last = (final ? undefined : findPartialAnchor(text, scanFrom)?.start) ?? text.length - 1;
    let next = 0;
    for (let index = from; index <= last; index += 1) {
      while (next < anchors.length && anchors[next]!.index < index) {
        const anchor = anchors[next]!;
        this.#involve(anchor.rule, textOffset + anchor.index, anchor.length);
        next += 1;
      }
      const offset = textOffset + index;
      if (offset >= this.#anchorsEnd && (offset >= this.#until || this.#stopsAll(text[index]!))) return { exit: index, through: index };
    }
    for (const anchor of anchors.slice(next)) {
      if (anchor.index <= last) this.#involve(anchor.rule, textOffset + anchor.index, anchor.length);
    }
    return { through: Math.max(from, last + 1) };
  }

  /** A block opening marker that begins before `before` and ends after `after`: its body must be dropped. */
  blockOpening(text: string, after: number, before: number): SecretMatch | undefined {
    return findSecretMatches(text, 0, blockRules).find((match) => match.start < before && match.markerEnd > after);
  }

  #involve(rule: SecretRule, start: number, anchorLength: number): void {
    this.#rules.add(rule);
    this.#until = Math.max(this.#until, start + rule.maxLength + 1);
    this.#anchorsEnd = Math.max(this.#anchorsEnd, start + anchorLength);
  }

  #stopsAll(char: string): boolean {
    for (const rule of this.#rules) if (!rule.stop.test(char)) return false;
    return true;
  }
}

function anchorsIn(text: string, from: number): Anchor[] {
  const anchors: Anchor[] = [];
  for (const rule of secretRules) {
    const pattern = rule.anchorPattern;
    pattern.lastIndex = from;
    for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
      anchors.push({ index: found.index, length: found[0].length, rule });
      pattern.lastIndex = found.index + 1;
    }
  }
  return anchors.sort((a, b) => a.index - b.index);
}
