// Fits a label into a width: wrapped onto a few lines, the last cut with an ellipsis when text is left
// over. Breaks after a space, `-` or `_` where it can, inside a word only when a word is wider than a line.
import type { MeasureText } from './measure-text';

export function wrapLabel(text: string, width: number, maxLines: number, measure: MeasureText): string[] {
  const fits = (line: string): boolean => measure(line.trimEnd()) <= width;
  const lines: string[] = [];
  let line = '';
  for (const piece of text.split(/(?<=[\s_-])/u)) {
    if (fits(line + piece)) {
      line += piece;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    if (fits(piece)) {
      line = piece;
      continue;
    }
    for (const char of piece) {
      if (line !== '' && !fits(line + char)) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  if (line !== '') lines.push(line);
  if (lines.length > maxLines) lines.splice(maxLines - 1, lines.length, ellipsize(lines.slice(maxLines - 1).join(''), width, measure));
  return lines.map((kept) => kept.trimEnd());
}

/** `text` itself when it fits, else as much of it as fits followed by `…`. */
export function ellipsize(text: string, width: number, measure: MeasureText): string {
  if (measure(text) <= width) return text;
  const chars = [...text];
  while (chars.length > 0 && measure(`${chars.join('').trimEnd()}…`) > width) chars.pop();
  return `${chars.join('').trimEnd()}…`;
}
