// What each box of the workflow graph says, where, and how big the boxes are: the step's name (on up
// to two lines), its type on a line of its own, and its state (or a draft's problem count) as a badge
// below, so type and state never run together. Boxes share one size, wide enough for the widest label
// up to a cap; only a name longer than two lines of the widest box is cut, with an ellipsis (the full
// name is in the box's tooltip and in the step table beside the graph).
import { ellipsize, wrapLabel } from './fit-label';
import type { MeasureText } from './measure-text';

export interface NodeLabel {
  readonly nameLines: readonly string[];
  readonly type: string;
  /** Baseline of the type line. */
  readonly typeY: number;
  /** The badge's text ('' for none), its top and its width. */
  readonly caption: string;
  readonly badgeY: number;
  readonly badgeWidth: number;
}

export interface NodeLabels {
  readonly width: number;
  readonly height: number;
  readonly labels: ReadonlyMap<string, NodeLabel>;
}

export interface Measures {
  /** The name's font (`.dag-name`). */
  readonly name: MeasureText;
  /** The type's and the badge's font (`.dag-type`, `.dag-state`). */
  readonly small: MeasureText;
}

export const PAD_X = 10;
export const BADGE_PAD_X = 6;
export const BADGE_HEIGHT = 16;
/** From a badge's top to its text's baseline. */
export const BADGE_BASELINE = 12;
export const NAME_LINE = 16;
/** Baseline of the name's first line. */
export const NAME_Y = 21;
const TYPE_GAP = 17;
const BADGE_GAP = 6;
const BOTTOM = 10;
const MIN_WIDTH = 176;
const MAX_WIDTH = 320;
const MAX_NAME_LINES = 2;

export function nodeLabels(steps: readonly { name: string; type: string; caption: string }[], measure: Measures): NodeLabels {
  const widest = Math.max(0, ...steps.map((step) => Math.max(measure.name(step.name), measure.small(step.type), badgeWidth(step.caption, measure))));
  const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.ceil(widest) + 2 * PAD_X));
  const room = width - 2 * PAD_X;
  const labels = new Map<string, NodeLabel>();
  let height = 0;
  for (const step of steps) {
    const nameLines = wrapLabel(step.name, room, MAX_NAME_LINES, measure.name);
    const typeY = NAME_Y + (Math.max(1, nameLines.length) - 1) * NAME_LINE + TYPE_GAP;
    const caption = ellipsize(step.caption, room - 2 * BADGE_PAD_X, measure.small);
    const badgeY = typeY + BADGE_GAP;
    labels.set(step.name, { nameLines, type: ellipsize(step.type, room, measure.small), typeY, caption, badgeY, badgeWidth: badgeWidth(caption, measure) });
    height = Math.max(height, (caption === '' ? typeY : badgeY + BADGE_HEIGHT) + BOTTOM);
  }
  return { width, height, labels };
}

function badgeWidth(caption: string, measure: Measures): number {
  return caption === '' ? 0 : Math.ceil(measure.small(caption)) + 2 * BADGE_PAD_X;
}
