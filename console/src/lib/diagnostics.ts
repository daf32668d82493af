// Groups a definition's diagnostics where they belong: on a step, on an edge (shown with its ends), or
// on the workflow as a whole.
import type { Diagnostic } from '../api/types';

export interface DiagnosticGroups {
  readonly byStep: ReadonlyMap<string, readonly Diagnostic[]>;
  readonly byEdge: readonly { readonly label: string; readonly diagnostic: Diagnostic }[];
  readonly general: readonly Diagnostic[];
}

export function groupDiagnostics(diagnostics: readonly Diagnostic[], edges: readonly { from?: unknown; to?: unknown }[]): DiagnosticGroups {
  const byStep = new Map<string, Diagnostic[]>();
  const byEdge: { label: string; diagnostic: Diagnostic }[] = [];
  const general: Diagnostic[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.step !== undefined) {
      byStep.set(diagnostic.step, [...(byStep.get(diagnostic.step) ?? []), diagnostic]);
    } else if (diagnostic.edge !== undefined) {
      const edge = edges[diagnostic.edge];
      const ends = edge === undefined ? '' : ` (${String(edge.from)} → ${String(edge.to)})`;
      byEdge.push({ label: `Edge ${diagnostic.edge}${ends}`, diagnostic });
    } else {
      general.push(diagnostic);
    }
  }
  return { byStep, byEdge, general };
}

/** The steps and edges of a draft, as far as they can be read, for drawing while it is being typed. */
export function draftShape(draft: unknown): { steps: { name: string; type: string }[]; edges: { from: string; to: string }[] } {
  const value = (typeof draft === 'object' && draft !== null ? draft : {}) as { steps?: unknown; edges?: unknown };
  const steps = (Array.isArray(value.steps) ? value.steps : []).flatMap((step: unknown) => {
    const s = step as { name?: unknown; type?: unknown } | null;
    return s !== null && typeof s === 'object' && typeof s.name === 'string' ? [{ name: s.name, type: typeof s.type === 'string' ? s.type : '?' }] : [];
  });
  const edges = (Array.isArray(value.edges) ? value.edges : []).flatMap((edge: unknown) => {
    const e = edge as { from?: unknown; to?: unknown } | null;
    return e !== null && typeof e === 'object' && typeof e.from === 'string' && typeof e.to === 'string' ? [{ from: e.from, to: e.to }] : [];
  });
  return { steps, edges };
}
