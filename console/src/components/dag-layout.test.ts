import { describe, expect, it } from 'vitest';
import { layoutDag, NODE_HEIGHT } from './dag-layout';

const layerOf = (layout: ReturnType<typeof layoutDag>, name: string) => layout.nodes.find((node) => node.name === name)!.layer;

describe('layoutDag', () => {
  it('puts every step one layer below its deepest predecessor', () => {
    const layout = layoutDag(['a', 'b', 'c', 'd'], [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'b', to: 'd' },
      { from: 'c', to: 'd' },
      { from: 'a', to: 'd' },
    ]);
    expect(['a', 'b', 'c', 'd'].map((name) => layerOf(layout, name))).toEqual([0, 1, 1, 2]);
    expect(layout.edges).toHaveLength(5);
    const a = layout.nodes[0]!;
    expect(layout.edges[0]).toMatchObject({ from: 'a', y1: a.y + NODE_HEIGHT });
  });

  it('draws a draft with a cycle, a self-loop and an edge to an unknown step without hanging', () => {
    const layout = layoutDag(['x', 'y', 'z'], [
      { from: 'x', to: 'y' },
      { from: 'y', to: 'z' },
      { from: 'z', to: 'y' },
      { from: 'z', to: 'z' },
      { from: 'z', to: 'ghost' },
    ]);
    expect(layout.nodes.map((node) => node.name)).toEqual(['x', 'y', 'z']);
    expect(layout.edges.map((edge) => `${edge.from}>${edge.to}`)).toEqual(['x>y', 'y>z', 'z>y']);
  });

  it('draws a graph that is one cycle, and duplicate names once', () => {
    const layout = layoutDag(['p', 'q', 'p'], [{ from: 'p', to: 'q' }, { from: 'q', to: 'p' }]);
    expect(layout.nodes).toHaveLength(2);
    expect(layout.width).toBeGreaterThan(0);
  });

  it('orders a layer by the position of its parents so edges do not cross', () => {
    const layout = layoutDag(['r1', 'r2', 'c2', 'c1'], [
      { from: 'r1', to: 'c1' },
      { from: 'r2', to: 'c2' },
    ]);
    const x = (name: string) => layout.nodes.find((node) => node.name === name)!.x;
    expect(x('c1')).toBeLessThan(x('c2'));
  });
});

describe('layoutDag with a box size', () => {
  it('spaces the boxes by the size it is given', () => {
    const layout = layoutDag(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }], { width: 300, height: 80 });
    const [a, b, c] = layout.nodes;
    expect(b!.y - a!.y).toBeGreaterThanOrEqual(80);
    expect(Math.abs(c!.x - b!.x)).toBeGreaterThanOrEqual(300);
    expect(layout.edges[0]).toMatchObject({ x1: a!.x + 150, y1: a!.y + 80 });
  });
});
