// Cedar checks a policy once per action it may apply to, so one mistake in a policy with no action in
// its scope comes back once per tool operation. Those are one error to an author: kept once, counted.
import type { PolicySetError } from './policy-set.js';

const ACTION_NAME = /Portcullis::Action::"(?:[^"\\]|\\.)*"/g;

export function collapseErrors(errors: readonly PolicySetError[]): PolicySetError[] {
  const groups = new Map<string, { first: PolicySetError; count: number }>();
  for (const error of errors) {
    const key = `${error.file}\u0000${error.line}\u0000${error.message.replace(ACTION_NAME, 'Portcullis::Action::*').replace(/ \(did you mean [^)]*\)/, '')}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { first: error, count: 1 });
    else group.count += 1;
  }
  return [...groups.values()].map(({ first, count }) => (count === 1 ? first : { ...first, message: `${first.message} (and the same for ${count - 1} more actions)` }));
}
