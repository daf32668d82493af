// Step names are the caller's handles in edges, branch targets and templates (`steps.<name>.output`).
// They may not contain the characters templates and sub-plan prefixes use as separators.

export const MAX_STEP_NAME_LENGTH = 100;

/** Separates a sub-plan step's name from its child steps' names in a run's step list. */
export const SUB_PLAN_SEPARATOR = '/';

// No `.`, `/`, `{`, `}`, no surrounding whitespace; control characters are checked separately.
const STEP_NAME = /^(?!\s)[^./{}]+(?<!\s)$/u;

export function isValidStepName(name: string): boolean {
  return name.length <= MAX_STEP_NAME_LENGTH && STEP_NAME.test(name) && ![...name].some(isControl);
}

function isControl(character: string): boolean {
  const code = character.codePointAt(0)!;
  return code < 0x20 || code === 0x7f;
}
