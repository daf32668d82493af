// Reads the grader's reply to an llm-rubric prompt: one JSON object `{ "pass": boolean, "reason": string }`,
// possibly fenced or wrapped in prose (the outermost braces are taken). Anything else is not a verdict.
export type Grade = { readonly pass: boolean; readonly reason: string };

const MAX_REASON = 1000;

export function parseGrade(reply: string): Grade | null {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start === -1 || end <= start) return null;
  let value: unknown;
  try {
    value = JSON.parse(reply.slice(start, end + 1));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pass, reason } = value as { pass?: unknown; reason?: unknown };
  if (typeof pass !== 'boolean') return null;
  const text = typeof reason === 'string' ? reason.trim().slice(0, MAX_REASON) : '';
  return { pass, reason: text === '' ? (pass ? 'The grader passed the output.' : 'The grader failed the output.') : text };
}
