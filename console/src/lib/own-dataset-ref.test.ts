import { describe, expect, it } from 'vitest';
import { chooseOwnDataset, ownDatasetRef, parseOwnDatasetRef } from './own-dataset-ref';

describe('own dataset names in a run', () => {
  it('name the latest version or a pinned one, and read back; a host dataset is none of mine', () => {
    expect(ownDatasetRef('faq', null)).toBe('mine/faq');
    expect(ownDatasetRef('faq', 3)).toBe('mine/faq@3');
    expect(parseOwnDatasetRef('mine/faq')).toEqual({ name: 'faq', version: null });
    expect(parseOwnDatasetRef('mine/faq@12')).toEqual({ name: 'faq', version: 12 });
    expect(parseOwnDatasetRef('capitals')).toBeNull();
    expect(parseOwnDatasetRef('mine/')).toBeNull();
  });

  it('replace an earlier choice of the same dataset where it stood, add a new one last, and leave it out when off', () => {
    const chosen = new Set(['capitals', 'mine/faq', 'arithmetic']);
    expect([...chooseOwnDataset(chosen, 'faq', 2)]).toEqual(['capitals', 'mine/faq@2', 'arithmetic']);
    expect([...chooseOwnDataset(chosen, 'faq', 'off')]).toEqual(['capitals', 'arithmetic']);
    expect([...chooseOwnDataset(chosen, 'smoke', null)]).toEqual(['capitals', 'mine/faq', 'arithmetic', 'mine/smoke']);
    expect([...chooseOwnDataset(new Set(['mine/faq@1', 'mine/faq@2']), 'faq', null)]).toEqual(['mine/faq']);
  });
});
