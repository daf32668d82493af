// Templates in step configuration strings: `{{ input.x }}`, `{{ steps.<name>.output }}` and
// `{{ steps.<name>.output.field }}` (fields may be array indexes). Text outside placeholders is kept
// as is; a `{{` without its `}}` is plain text.

export interface TemplateReference {
  readonly root: 'input' | 'steps';
  /** The referenced step's name (root `steps`). */
  readonly step?: string;
  /** Fields below `input` or below the step's `output`. */
  readonly path: readonly string[];
}

export type TemplatePart = string | TemplateReference;

export interface ParsedTemplate {
  readonly parts: readonly TemplatePart[];
  /** Set when the whole string is exactly one placeholder: its value keeps its JSON type. */
  readonly single: TemplateReference | undefined;
}

export type TemplateParse = { readonly ok: true; readonly template: ParsedTemplate } | { readonly ok: false; readonly placeholder: string };

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const INPUT = /^input((?:\.[^.\s{}]+)*)$/;
const STEP = /^steps\.([^./{}]+)\.output((?:\.[^.\s{}]+)*)$/;

export function hasPlaceholder(text: string): boolean {
  return text.includes('{{');
}

export function parseTemplate(text: string): TemplateParse {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const reference = parseReference(match[1]!.trim());
    if (reference === undefined) return { ok: false, placeholder: match[0] };
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(reference);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  const only = parts.length === 1 ? parts[0] : undefined;
  return { ok: true, template: { parts, single: typeof only === 'object' ? only : undefined } };
}

function parseReference(expression: string): TemplateReference | undefined {
  const input = INPUT.exec(expression);
  if (input) return { root: 'input', path: fields(input[1]!) };
  const step = STEP.exec(expression);
  if (step) return { root: 'steps', step: step[1]!.trim(), path: fields(step[2]!) };
  return undefined;
}

function fields(path: string): string[] {
  return path === '' ? [] : path.slice(1).split('.');
}
