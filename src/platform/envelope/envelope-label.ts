// Names the rule an envelope came from, for decision wording: "subject envelope", "role Reader",
// "roles A, B", "default envelope". Wording only; never used to decide anything.
import type { ResolvedEnvelope } from './resolved-envelope.js';

function label(grant: ResolvedEnvelope): { readonly text: string; readonly article: string } {
  switch (grant.source) {
    case 'subject':
      return { text: 'subject envelope', article: 'the ' };
    case 'roles':
      return { text: `${grant.matchedRoles.length === 1 ? 'role' : 'roles'} ${grant.matchedRoles.join(', ')}`, article: '' };
    case 'default':
      return { text: 'default envelope', article: 'the ' };
    case 'anonymous':
      return { text: 'default envelope (anonymous)', article: 'the ' };
  }
}

/** "subject envelope", "roles A, B" — as in "granted by …". */
export function envelopeName(grant: ResolvedEnvelope): string {
  return label(grant).text;
}

/** "the subject envelope", "roles A, B" — as in "not in AllowedTools of …". */
export function envelopeReference(grant: ResolvedEnvelope): string {
  const { text, article } = label(grant);
  return article + text;
}
