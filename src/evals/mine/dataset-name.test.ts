import { describe, expect, it } from 'vitest';
import { isDatasetName, isOwnDatasetName, parseOwnDatasetName } from './dataset-name.js';

describe('own dataset names', () => {
  it('accepts [a-z0-9][a-z0-9-]{0,63} and nothing else', () => {
    for (const name of ['a', '0', 'faq', 'a-b-c', '9-', 'a'.repeat(64)]) expect(isDatasetName(name), name).toBe(true);
    for (const name of ['', '-a', 'A', 'a_b', 'a.b', 'a/b', 'a@1', 'é', 'a'.repeat(65), 'a\n', ' a']) expect(isDatasetName(name), name).toBe(false);
  });

  it('reads a run name as mine/<name> (latest) or mine/<name>@<version>', () => {
    expect(parseOwnDatasetName('mine/faq')).toEqual({ name: 'faq', version: null });
    expect(parseOwnDatasetName('mine/faq@12')).toEqual({ name: 'faq', version: 12 });
    for (const name of ['faq', 'mine/', 'mine/faq@', 'mine/faq@0', 'mine/faq@01', 'mine/faq@-1', 'mine/faq@1.0', 'mine/faq@1@2', 'mine/Faq', 'mine/a/b', 'Mine/faq']) {
      expect(parseOwnDatasetName(name), name).toBeUndefined();
    }
  });

  it('routes every name under mine/ to own datasets, and no host dataset name', () => {
    expect(isOwnDatasetName('mine/x')).toBe(true);
    expect(isOwnDatasetName('mine/')).toBe(true);
    expect(isOwnDatasetName('mine')).toBe(false);
    expect(isOwnDatasetName('capitals')).toBe(false);
  });
});
