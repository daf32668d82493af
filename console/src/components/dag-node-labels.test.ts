import { describe, expect, it } from 'vitest';
import { BADGE_HEIGHT, nodeLabels, PAD_X } from './dag-node-labels';
import { estimatedWidth } from './measure-text';

const measures = { name: estimatedWidth({ sizePx: 13, weight: 600 }), small: estimatedWidth({ sizePx: 11, weight: 400 }) };

describe('nodeLabels', () => {
  it('keeps a step type whole and puts the state on a line of its own, inside the box', () => {
    const boxes = nodeLabels([{ name: 'large', type: 'ConditionalBranch', caption: 'Succeeded' }], measures);
    const label = boxes.labels.get('large')!;
    expect(label).toMatchObject({ nameLines: ['large'], type: 'ConditionalBranch', caption: 'Succeeded' });
    expect(label.badgeY).toBeGreaterThan(label.typeY);
    expect(measures.small('ConditionalBranch') + 2 * PAD_X).toBeLessThanOrEqual(boxes.width);
    expect(PAD_X + label.badgeWidth).toBeLessThanOrEqual(boxes.width);
    expect(label.badgeY + BADGE_HEIGHT).toBeLessThanOrEqual(boxes.height);
  });

  it('sizes every box to the widest label, and wraps a name too long for the widest box onto two lines', () => {
    const long = 'collect the signed purchase orders from every regional office before the quarter closes';
    const boxes = nodeLabels(
      [
        { name: 'a', type: 'LlmCall', caption: '' },
        { name: long, type: 'ToolUse', caption: 'Running' },
      ],
      measures,
    );
    expect(boxes.width).toBe(320);
    const lines = boxes.labels.get(long)!.nameLines;
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    for (const line of lines) expect(measures.name(line)).toBeLessThanOrEqual(boxes.width - 2 * PAD_X);
    expect(boxes.labels.get(long)!.typeY).toBeGreaterThan(boxes.labels.get('a')!.typeY);
  });

  it('keeps the narrowest box for short labels and no badge line when no step has a state', () => {
    const boxes = nodeLabels([{ name: 'draft', type: 'LlmCall', caption: '' }], measures);
    expect(boxes.width).toBe(176);
    expect(boxes.height).toBeLessThan(nodeLabels([{ name: 'draft', type: 'LlmCall', caption: 'Pending' }], measures).height);
  });
});
