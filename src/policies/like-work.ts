// The most work a decision's `like` operations can do (Cedar matches a pattern in up to pattern ×
// text steps): for each `like`, (pattern length + 1) × (longest text that may reach it + 1). Text reaches
// a `like` through an attribute name, a principal tag, a literal, or, for anything else, from anywhere.
import type { LikeRead } from './policy-reads.js';

export interface TextLengths {
  /** The longest text an attribute of this name holds in the request (0 when none). */
  byName(name: string): number;
  readonly longestTag: number;
  readonly longestAnywhere: number;
}

export function likeWork(likes: readonly LikeRead[], texts: TextLengths): number {
  let work = 0;
  for (const like of likes) {
    let longest = like.literal;
    for (const name of like.attributes) longest = Math.max(longest, texts.byName(name));
    if (like.tags) longest = Math.max(longest, texts.longestTag);
    if (like.anywhere) longest = Math.max(longest, texts.longestAnywhere);
    work += (like.patternLength + 1) * (longest + 1);
  }
  return work;
}
