// Draws a workflow's steps and edges as SVG: each box names the step, its type and its state (a run's
// live step status, or how many diagnostics a draft has on it) on lines of their own, the boxes sized
// to their labels (dag-node-labels). The picture is a summary for sighted users; the same facts are in
// the step list beside it.
import { useMemo } from 'preact/hooks';
import { layoutDag } from './dag-layout';
import { BADGE_BASELINE, BADGE_HEIGHT, BADGE_PAD_X, NAME_LINE, NAME_Y, nodeLabels, PAD_X, type Measures } from './dag-node-labels';
import { textMeasurer } from './measure-text';

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

const captionOf = (step: DagStep): string => (step.problems ? `${step.problems} problem${step.problems === 1 ? '' : 's'}` : (step.status ?? ''));

export function DagView({ steps, edges, label }: DagViewProps) {
  // The fonts of .dag-name and of .dag-type/.dag-state in styles.css.
  const measures = useMemo<Measures>(() => ({ name: textMeasurer({ sizePx: 13, weight: 600 }), small: textMeasurer({ sizePx: 11, weight: 400 }) }), []);
  const boxes = nodeLabels(
    steps.map((step) => ({ name: step.name, type: step.type, caption: captionOf(step) })),
    measures,
  );
  const layout = layoutDag(
    steps.map((step) => step.name),
    edges,
    boxes,
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
          const text = boxes.labels.get(node.name)!;
          const state = step.problems ? 'problem' : (step.status ?? 'none').toLowerCase();
          return (
            <g key={node.name} class={`dag-node dag-${state}`} transform={`translate(${node.x},${node.y})`} data-step={node.name}>
              <title>{[step.name, step.type, captionOf(step)].filter((part) => part !== '').join(' · ')}</title>
              <rect class="dag-box" width={boxes.width} height={boxes.height} rx="6" />
              <text x={PAD_X} y={NAME_Y} class="dag-name">
                {text.nameLines.map((line, i) => (
                  <tspan key={i} x={PAD_X} dy={i === 0 ? 0 : NAME_LINE}>
                    {line}
                  </tspan>
                ))}
              </text>
              <text x={PAD_X} y={text.typeY} class="dag-type">
                {text.type}
              </text>
              {text.caption === '' ? null : (
                <g class="dag-badge" transform={`translate(${PAD_X},${text.badgeY})`}>
                  <rect width={text.badgeWidth} height={BADGE_HEIGHT} rx={BADGE_HEIGHT / 2} />
                  <text x={BADGE_PAD_X} y={BADGE_BASELINE} class="dag-state">
                    {text.caption}
                  </text>
                </g>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
