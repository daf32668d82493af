// Renders templates against a run's scope: the workflow input and the outputs of settled steps. A
// missing value renders as an empty string in text and as null where a whole value is substituted.
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

export function renderText(text: string, scope: TemplateScope): string {
  if (!hasPlaceholder(text)) return text;
  const parsed = parseTemplate(text);
  if (!parsed.ok) return text; // validation refused such definitions; never reached for stored ones
  return parsed.template.parts.map((part) => (typeof part === 'string' ? part : stringify(resolveReference(part, scope)))).join('');
}

/** Deep render of a JSON value: a string that is exactly one placeholder takes the referenced value. */
export function renderValue(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    if (!hasPlaceholder(value)) return value;
    const parsed = parseTemplate(value);
    if (parsed.ok && parsed.template.single !== undefined) return resolveReference(parsed.template.single, scope) ?? null;
    return renderText(value, scope);
  }
  if (Array.isArray(value)) return value.map((item) => renderValue(item, scope));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderValue(item, scope)]));
  }
  return value;
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}
