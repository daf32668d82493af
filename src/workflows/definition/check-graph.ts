// The graph checks: the entry step exists, every edge joins known steps (once), there are no cycles,
// and every step is reachable from the entry step. Returns the adjacency the later checks use.
import type { DiagnosticList } from './diagnostic.js';
import { findCycles } from './find-cycles.js';
import type { ReadDefinition } from './read-definition.js';

export interface GraphShape {
  /** Step index (in `steps`) by name, for steps with a usable name. */
  readonly indexOf: ReadonlyMap<string, number>;
  readonly successors: readonly (readonly number[])[];
  readonly predecessors: readonly (readonly number[])[];
  /** Index of the entry step, undefined when it cannot be determined. */
  readonly entry: number | undefined;
  readonly acyclic: boolean;
}

export function checkGraph(definition: ReadDefinition, diagnostics: DiagnosticList): GraphShape {
  const { steps } = definition;
  const indexOf = new Map<string, number>();
  for (const step of steps) if (step.name !== undefined && !indexOf.has(step.name)) indexOf.set(step.name, step.index);
  const successors: number[][] = steps.map(() => []);
  const predecessors: number[][] = steps.map(() => []);

  const seenEdges = new Set<string>();
  for (const edge of definition.edges) {
    if (edge.from === undefined || edge.to === undefined) continue;
    const from = indexOf.get(edge.from);
    const to = indexOf.get(edge.to);
    for (const [end, name, at] of [['from', edge.from, from], ['to', edge.to, to]] as const) {
      if (at === undefined) diagnostics.add('unknown-edge-end', `Edge ${edge.index}: '${end}' names no step ('${clip(name)}').`, { edge: edge.index });
    }
    if (from === undefined || to === undefined) continue;
    const key = `${from}>${to}`;
    if (seenEdges.has(key)) {
      diagnostics.add('duplicate-edge', `Edge ${edge.index} repeats the edge from '${edge.from}' to '${edge.to}'.`, { edge: edge.index });
      continue;
    }
    seenEdges.add(key);
    successors[from]!.push(to);
    predecessors[to]!.push(from);
  }

  const cycles = findCycles(successors);
  for (const cycle of cycles) {
    const names = cycle.map((i) => steps[i]!.name ?? `#${i}`);
    const message = names.length === 1 ? `Step '${names[0]!}' has an edge to itself.` : `Steps ${names.map((n) => `'${n}'`).join(', ')} form a cycle.`;
    diagnostics.add('cycle', message, { step: names[0]! });
  }

  const entry = entryIndex(definition, indexOf, diagnostics);
  if (entry !== undefined && !definition.edgesMisspelled) reportUnreachable(definition, successors, entry, diagnostics);
  return { indexOf, successors, predecessors, entry, acyclic: cycles.length === 0 };
}

function entryIndex(definition: ReadDefinition, indexOf: ReadonlyMap<string, number>, diagnostics: DiagnosticList): number | undefined {
  if (definition.entryStep === undefined) return definition.steps[0]?.name === undefined ? undefined : 0;
  const entry = indexOf.get(definition.entryStep);
  if (entry === undefined) {
    diagnostics.add('unknown-entry-step', `The workflow configuration's 'entryStep' names no step ('${clip(definition.entryStep)}').`);
  }
  return entry;
}

function reportUnreachable(definition: ReadDefinition, successors: readonly (readonly number[])[], entry: number, diagnostics: DiagnosticList): void {
  const reached = new Uint8Array(definition.steps.length);
  const queue = [entry];
  reached[entry] = 1;
  for (let i = 0; i < queue.length; i += 1) {
    for (const next of successors[queue[i]!]!) {
      if (reached[next] === 1) continue;
      reached[next] = 1;
      queue.push(next);
    }
  }
  const entryName = definition.steps[entry]!.name!;
  for (const step of definition.steps) {
    if (reached[step.index] === 1 || step.name === undefined) continue;
    diagnostics.add('unreachable-step', `Step '${step.name}' cannot be reached from the entry step '${entryName}'.`, { step: step.name });
  }
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
