import { describe, expect, it } from 'vitest';
import { isValidStepName, MAX_STEP_NAME_LENGTH } from './step-name.js';

describe('step names', () => {
  it('refuses separators, control characters and whitespace at either end', () => {
    for (const name of ['', 'a.b', 'a/b', '{a}', ' a', 'a ', 'a\u0000', 'a\tb', 'a\u007f', '\u3000a']) expect(isValidStepName(name), JSON.stringify(name)).toBe(false);
    for (const name of ['a', 'a b', 'fetch-1', 'étape', '\u{1F600}', 'a\u00a0b']) expect(isValidStepName(name), name).toBe(true);
  });

  it('counts code points, as the definition schema’s maxLength does', () => {
    expect(isValidStepName('\u{1F600}'.repeat(MAX_STEP_NAME_LENGTH))).toBe(true);
    expect(isValidStepName('\u{1F600}'.repeat(MAX_STEP_NAME_LENGTH + 1))).toBe(false);
  });
});
