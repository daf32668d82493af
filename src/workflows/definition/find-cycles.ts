// Strongly connected components of a directed graph (Tarjan, iterative so 10,000 steps cannot
// overflow the stack), keeping only those that are cycles: two or more nodes, or one with a self-edge.

export function findCycles(successors: readonly (readonly number[])[]): number[][] {
  const n = successors.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const cycles: number[][] = [];
  let counter = 0;

  for (let root = 0; root < n; root += 1) {
    if (index[root] !== -1) continue;
    // Each frame: node and the position of the next successor to visit.
    const frames: Array<[number, number]> = [[root, 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const [node, next] = frame;
      const out = successors[node]!;
      if (next < out.length) {
        frame[1] = next + 1;
        const target = out[next]!;
        if (index[target] === -1) {
          index[target] = low[target] = counter++;
          stack.push(target);
          onStack[target] = 1;
          frames.push([target, 0]);
        } else if (onStack[target] === 1) {
          low[node] = Math.min(low[node]!, index[target]!);
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) low[parent[0]] = Math.min(low[parent[0]]!, low[node]!);
      if (low[node] !== index[node]) continue;
      const component: number[] = [];
      let member: number;
      do {
        member = stack.pop()!;
        onStack[member] = 0;
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || out.includes(node)) cycles.push(component.sort((a, b) => a - b));
    }
  }
  return cycles.sort((a, b) => a[0]! - b[0]!);
}
