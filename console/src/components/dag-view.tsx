// Draws a workflow's steps and edges as SVG: each box names the step, its type and its state (a run's
// live step status, or how many diagnostics a draft has on it). The picture is a summary for sighted
// users; the same facts are in the step list beside it.
import { layoutDag, NODE_HEIGHT, NODE_WIDTH } from './dag-layout';

export interface DagStep {
  readonly name: string;
  readonly type: string;
  /** A step status (`Running`, `Succeeded`, …) or null when there is none. */
  readonly status?: string | null;
  readonly problems?: number;
}

export interface DagViewProps {
  readonly steps: readonly DagStep[];
  readonly edges: readonly { from: string; to: string }[];
  readonly label: string;
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function DagView({ steps, edges, label }: DagViewProps) {
  const layout = layoutDag(
    steps.map((step) => step.name),
    edges,
  );
  const byName = new Map(steps.map((step) => [step.name, step]));
  return (
    <figure class="dag">
      <svg role="img" aria-label={label} viewBox={`0 0 ${layout.width} ${layout.height}`} width={layout.width} height={layout.height}>
        <defs>
          <marker id="dag-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" class="dag-arrow" />
          </marker>
        </defs>
        {layout.edges.map((edge) => {
          const bend = Math.max(20, (edge.y2 - edge.y1) / 2);
          const d =
            edge.y2 > edge.y1
              ? `M${edge.x1},${edge.y1} C${edge.x1},${edge.y1 + bend} ${edge.x2},${edge.y2 - bend} ${edge.x2},${edge.y2}`
              : `M${edge.x1},${edge.y1} C${edge.x1 + 90},${edge.y1 + 60} ${edge.x2 + 90},${edge.y2 - 60} ${edge.x2},${edge.y2}`;
          return <path key={`${edge.from}>${edge.to}`} class="dag-edge" d={d} marker-end="url(#dag-arrow)" />;
        })}
        {layout.nodes.map((node) => {
          const step = byName.get(node.name)!;
          const state = step.problems ? 'problem' : (step.status ?? 'none').toLowerCase();
          const caption = step.problems ? `${step.problems} problem${step.problems === 1 ? '' : 's'}` : (step.status ?? '');
          return (
            <g key={node.name} class={`dag-node dag-${state}`} transform={`translate(${node.x},${node.y})`} data-step={node.name}>
              <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx="6" />
              <text x="10" y="20" class="dag-name">
                {clip(node.name, 22)}
              </text>
              <text x="10" y="40" class="dag-type">
                {clip(step.type, 16)}
              </text>
              {caption === '' ? null : (
                <text x={NODE_WIDTH - 10} y="40" class="dag-state" text-anchor="end">
                  {caption}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
