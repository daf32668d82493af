import { describe, expect, it } from 'vitest';
import { draftShape, groupDiagnostics } from './diagnostics';

describe('groupDiagnostics', () => {
  it('puts each diagnostic on its step, on its edge (named by its ends) or on the workflow', () => {
    const groups = groupDiagnostics(
      [
        { code: 'a', step: 'draft', message: 'm1' },
        { code: 'b', step: 'draft', message: 'm2' },
        { code: 'c', edge: 1, message: 'm3' },
        { code: 'd', message: 'm4' },
      ],
      [{ from: 'x', to: 'y' }, { from: 'draft', to: 'ghost' }],
    );
    expect(groups.byStep.get('draft')?.map((d) => d.message)).toEqual(['m1', 'm2']);
    expect(groups.byEdge).toEqual([{ label: 'Edge 1 (draft → ghost)', diagnostic: { code: 'c', edge: 1, message: 'm3' } }]);
    expect(groups.general.map((d) => d.code)).toEqual(['d']);
  });
});

describe('draftShape', () => {
  it('reads what it can of a half-written definition', () => {
    expect(draftShape({ steps: [{ name: 'a', type: 'LlmCall' }, { type: 'x' }, null, { name: 'b' }], edges: [{ from: 'a', to: 'b' }, { from: 1 }] })).toEqual({
      steps: [{ name: 'a', type: 'LlmCall' }, { name: 'b', type: '?' }],
      edges: [{ from: 'a', to: 'b' }],
    });
    expect(draftShape('nonsense')).toEqual({ steps: [], edges: [] });
  });
});
