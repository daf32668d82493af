// Renders templates against a run's scope: the workflow input and the outputs of settled steps. A
// missing value renders as an empty string in text and as null where a whole value is substituted.
// Rendering is bounded: a template that would render past `maxBytes` (UTF-8) yields undefined, and
// is measured rather than built past that point, so `{{ input.x }}` repeated a hundred times over a
// large `x` never materialises the whole string (the amplification the bound exists for).
import { jsonSize } from './json-size.js';
import { hasPlaceholder, parseTemplate, type TemplateReference } from './parse-template.js';

export interface TemplateScope {
  readonly input: Readonly<Record<string, unknown>>;
  /** Settled steps of the same workflow, by name. */
  readonly steps: Readonly<Record<string, { readonly output: unknown }>>;
}

export function resolveReference(reference: TemplateReference, scope: TemplateScope): unknown {
  let value: unknown =
    reference.root === 'input'
      ? scope.input
      : Object.hasOwn(scope.steps, reference.step!)
        ? scope.steps[reference.step!]!.output
        : undefined;
  for (const field of reference.path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, field)) return undefined;
    value = (value as Record<string, unknown>)[field];
  }
  return value;
}

/** The rendered text, or undefined when it would be larger than `maxBytes`. */
export function renderText(text: string, scope: TemplateScope, maxBytes: number): string | undefined {
  return renderWithin(text, scope, { left: maxBytes });
}

/**
 * Deep render of a JSON value: a string that is exactly one placeholder takes the referenced value.
 * Undefined when the result, measured as JSON, would be larger than `maxBytes`.
 */
export function renderValue(value: unknown, scope: TemplateScope, maxBytes: number): unknown {
  const rendered = renderValueWithin(value, scope, { left: maxBytes });
  return rendered === TOO_LARGE ? undefined : rendered;
}

/**
 * A lower bound on a template's rendered size, in UTF-8 bytes, knowing only the workflow input:
 * step outputs count as empty. Stops counting once past `limit`. Used to refuse a run at start.
 */
export function renderedSizeFromInput(text: string, input: Readonly<Record<string, unknown>>, limit: number): number {
  if (!hasPlaceholder(text)) return Buffer.byteLength(text, 'utf8');
  const parsed = parseTemplate(text);
  if (!parsed.ok) return 0;
  let size = 0;
  for (const part of parsed.template.parts) {
    if (typeof part === 'string') size += Buffer.byteLength(part, 'utf8');
    else if (part.root === 'input') size += textSize(resolveReference(part, { input, steps: {} }), limit - size);
    if (size > limit) break;
  }
  return size;
}

const TOO_LARGE: unique symbol = Symbol('too large');

interface Budget {
  left: number;
}

function renderWithin(text: string, scope: TemplateScope, budget: Budget): string | undefined {
  if (!hasPlaceholder(text)) return spend(budget, Buffer.byteLength(text, 'utf8')) ? text : undefined;
  const parsed = parseTemplate(text);
  // Validation refused unparsable templates; a stored one that is not parsable is plain text.
  if (!parsed.ok) return spend(budget, Buffer.byteLength(text, 'utf8')) ? text : undefined;
  const pieces: string[] = [];
  for (const part of parsed.template.parts) {
    const piece = typeof part === 'string' ? part : stringifyWithin(resolveReference(part, scope), budget.left);
    if (piece === undefined || !spend(budget, Buffer.byteLength(piece, 'utf8'))) return undefined;
    pieces.push(piece);
  }
  return pieces.join('');
}

function renderValueWithin(value: unknown, scope: TemplateScope, budget: Budget): unknown {
  if (typeof value === 'string') {
    const parsed = hasPlaceholder(value) ? parseTemplate(value) : undefined;
    if (parsed?.ok === true && parsed.template.single !== undefined) {
      const whole = resolveReference(parsed.template.single, scope) ?? null;
      return spend(budget, jsonSize(whole, budget.left)) ? whole : TOO_LARGE;
    }
    const text = renderWithin(value, scope, budget);
    return text === undefined || !spend(budget, 2) ? TOO_LARGE : text;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value as unknown[]) {
      const rendered = renderValueWithin(item, scope, budget);
      if (rendered === TOO_LARGE || !spend(budget, 1)) return TOO_LARGE;
      out.push(rendered);
    }
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!spend(budget, Buffer.byteLength(key, 'utf8') + 4)) return TOO_LARGE;
      const rendered = renderValueWithin(item, scope, budget);
      if (rendered === TOO_LARGE) return TOO_LARGE;
      out[key] = rendered;
    }
    return out;
  }
  return spend(budget, jsonSize(value, budget.left)) ? value : TOO_LARGE;
}

function spend(budget: Budget, bytes: number): boolean {
  budget.left -= bytes;
  return budget.left >= 0;
}

/** Text form of a substituted value, or undefined when its JSON would pass `limit` bytes. */
function stringifyWithin(value: unknown, limit: number): string | undefined {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (jsonSize(value, limit) > limit) return undefined;
  return JSON.stringify(value) ?? '';
}

/** Rendered size of a substituted value, stopping past `limit`. */
function textSize(value: unknown, limit: number): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  return jsonSize(value, limit);
}
