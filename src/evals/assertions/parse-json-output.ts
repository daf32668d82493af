// Reads a model's output as JSON for `is-json`, `json-schema` and non-string `equals`: the whole
// output (surrounding whitespace aside) must be one JSON document; a ```json fence around it is accepted.
export type ParsedOutput = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i;

export function parseJsonOutput(output: string): ParsedOutput {
  const trimmed = output.trim();
  const body = FENCE.exec(trimmed)?.[1] ?? trimmed;
  if (body === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}
