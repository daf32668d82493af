// Widths of text as the browser will draw it, so the workflow graph can size its boxes to their
// labels: a canvas measures with the page's own font family. Without a canvas (unit tests, a browser
// that refuses one) a generous estimate stands in, which errs towards boxes a little too wide.

export type MeasureText = (text: string) => number;

export interface Font {
  readonly sizePx: number;
  readonly weight: number;
}

export function textMeasurer(font: Font): MeasureText {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (context === null) return estimatedWidth(font);
  const family = getComputedStyle(document.documentElement).fontFamily || 'sans-serif';
  context.font = `${font.weight} ${font.sizePx}px ${family}`;
  return (text) => context.measureText(text).width;
}

/** About two thirds of an em per character: wider than most proportional fonts' average. */
export function estimatedWidth(font: Font): MeasureText {
  return (text) => [...text].length * font.sizePx * 0.68;
}
