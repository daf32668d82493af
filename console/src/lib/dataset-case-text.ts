// A dataset case as a table shows it (DESIGN §7): its id (or the one the service gives it), what the
// subject is asked, and each assertion in one short line.
import type { DatasetAssertion, DatasetCase } from '../api/types';

const VALUE_CHARS = 80;

/** The case's id, or `case-<position>` as the service names a case without one. */
export function caseName(entry: DatasetCase, index: number): string {
  return entry.id ?? `case-${index + 1}`;
}

/** Its input, or its messages one per line. */
export function caseInput(entry: DatasetCase): string {
  return entry.input ?? (entry.messages ?? []).join('\n');
}

/** `icontains "paris"`, `max-latency-ms 8000 (warn)`, `regex "^a" /i`, `json-schema {"type":…`. */
export function assertionText(assertion: DatasetAssertion): string {
  const value = assertion.value === undefined ? '' : ` ${clip(JSON.stringify(assertion.value))}`;
  const flags = assertion.flags === undefined || assertion.flags === '' ? '' : ` /${assertion.flags}`;
  const warn = assertion.severity === 'warn' ? ' (warn)' : '';
  return `${assertion.type}${value}${flags}${warn}`;
}

function clip(text: string): string {
  return text.length <= VALUE_CHARS ? text : `${text.slice(0, VALUE_CHARS - 1)}…`;
}
