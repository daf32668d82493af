// Step names are the caller's handles in edges, branch targets and templates (`steps.<name>.output`).
// They may not contain the characters templates and sub-plan prefixes use as separators. The rule is
// one pattern, published in the definition schema too, so the schema refuses exactly what this does.

export const MAX_STEP_NAME_LENGTH = 100;

/** Separates a sub-plan step's name from its child steps' names in a run's step list. */
export const SUB_PLAN_SEPARATOR = '/';

/** No `.`, `/`, `{`, `}` or control characters; no whitespace at either end. */
export const STEP_NAME_PATTERN = '^[^./{}\\s\\u0000-\\u001f\\u007f](?:[^./{}\\u0000-\\u001f\\u007f]*[^./{}\\s\\u0000-\\u001f\\u007f])?$';
const STEP_NAME = new RegExp(STEP_NAME_PATTERN, 'u');

/** Counted in code points, as JSON Schema's maxLength counts. */
export function isValidStepName(name: string): boolean {
  return STEP_NAME.test(name) && [...name].length <= MAX_STEP_NAME_LENGTH;
}
