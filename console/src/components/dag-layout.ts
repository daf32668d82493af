// Lays out a workflow DAG for drawing: layers by longest path from the roots, order within a layer by
// the mean position of each node's predecessors (two sweeps), then coordinates. Tolerates what a
// draft may contain — cycles, edges to unknown steps, duplicate names — without looping.

export interface LayoutNode {
  readonly name: string;
  readonly layer: number;
  readonly x: number;
  readonly y: number;
}

export interface LayoutEdge {
  readonly from: string;
  readonly to: string;
  /** Points from the source's bottom to the target's top. */
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

export interface Layout {
  readonly nodes: readonly LayoutNode[];
  readonly edges: readonly LayoutEdge[];
  readonly width: number;
  readonly height: number;
}

/** The size of a box when the caller gives none; the graph view sizes its boxes to their labels. */
export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 52;

export interface NodeSize {
  readonly width: number;
  readonly height: number;
}

const GAP_X = 28;
const GAP_Y = 44;
const MARGIN = 12;

export function layoutDag(
  names: readonly string[],
  edges: readonly { from: string; to: string }[],
  { width: nodeWidth, height: nodeHeight }: NodeSize = { width: NODE_WIDTH, height: NODE_HEIGHT },
): Layout {
  const unique = [...new Set(names)];
  const known = new Set(unique);
  const links = edges.filter((edge) => known.has(edge.from) && known.has(edge.to) && edge.from !== edge.to);
  const layer = assignLayers(unique, links);
  const layers: string[][] = [];
  for (const name of unique) (layers[layer.get(name)!] ??= []).push(name);
  orderLayers(layers, links);

  const widest = Math.max(1, ...layers.map((row) => row.length));
  const width = MARGIN * 2 + widest * nodeWidth + (widest - 1) * GAP_X;
  const position = new Map<string, LayoutNode>();
  layers.forEach((row, index) => {
    const rowWidth = row.length * nodeWidth + (row.length - 1) * GAP_X;
    const start = (width - rowWidth) / 2;
    row.forEach((name, column) => {
      position.set(name, { name, layer: index, x: start + column * (nodeWidth + GAP_X), y: MARGIN + index * (nodeHeight + GAP_Y) });
    });
  });
  const nodes = unique.map((name) => position.get(name)!);
  return {
    nodes,
    edges: links.map((edge) => {
      const a = position.get(edge.from)!;
      const b = position.get(edge.to)!;
      return { from: edge.from, to: edge.to, x1: a.x + nodeWidth / 2, y1: a.y + nodeHeight, x2: b.x + nodeWidth / 2, y2: b.y };
    }),
    width,
    height: MARGIN * 2 + Math.max(1, layers.length) * nodeHeight + Math.max(0, layers.length - 1) * GAP_Y,
  };
}

/** Longest path from a root; nodes on a cycle are placed once, after what reaches them. */
function assignLayers(names: readonly string[], links: readonly { from: string; to: string }[]): Map<string, number> {
  const incoming = new Map(names.map((name) => [name, 0]));
  const next = new Map<string, string[]>(names.map((name) => [name, []]));
  for (const { from, to } of links) {
    incoming.set(to, incoming.get(to)! + 1);
    next.get(from)!.push(to);
  }
  const layer = new Map<string, number>();
  const queue = names.filter((name) => incoming.get(name) === 0);
  for (const root of queue) layer.set(root, 0);
  const remaining = new Set(names);
  while (remaining.size > 0) {
    // Kahn's order; when only cycles are left, break one open at the first remaining node.
    if (queue.length === 0) {
      const stuck = names.find((name) => remaining.has(name))!;
      layer.set(stuck, Math.max(layer.get(stuck) ?? 0, 0));
      queue.push(stuck);
      incoming.set(stuck, 0);
    }
    const name = queue.shift()!;
    if (!remaining.delete(name)) continue;
    for (const to of next.get(name)!) {
      if (!remaining.has(to)) continue;
      layer.set(to, Math.max(layer.get(to) ?? 0, layer.get(name)! + 1));
      incoming.set(to, incoming.get(to)! - 1);
      if (incoming.get(to) === 0) queue.push(to);
    }
  }
  return layer;
}

function orderLayers(layers: string[][], links: readonly { from: string; to: string }[]): void {
  for (let sweep = 0; sweep < 2; sweep += 1) {
    const index = new Map<string, number>();
    for (const row of layers) row.forEach((name, i) => index.set(name, i));
    for (const row of layers.slice(1)) {
      const score = new Map(
        row.map((name) => {
          const parents = links.filter((edge) => edge.to === name).map((edge) => index.get(edge.from) ?? 0);
          return [name, parents.length === 0 ? (index.get(name) ?? 0) : parents.reduce((a, b) => a + b, 0) / parents.length];
        }),
      );
      row.sort((a, b) => score.get(a)! - score.get(b)!);
      row.forEach((name, i) => index.set(name, i));
    }
  }
}
