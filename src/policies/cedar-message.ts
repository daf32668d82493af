// One of Cedar's diagnostics as a line of a policy file and a message, with Cedar's label for the
// spot (the tokens a parser expected) and its help. Cedar names a policy by the id it gave it within
// the file it was handed (`for policy \`policy1\`, …`), which is not the id the set knows it by, so
// that prefix is dropped: the file and line say which policy it is.
import type { DetailedError } from '@cedar-policy/cedar-wasm/nodejs';
import type { SourceLines } from './source-lines.js';

export interface LocatedMessage {
  readonly line: number | null;
  readonly message: string;
}

export function locatedMessage(error: DetailedError, lines: SourceLines): LocatedMessage {
  const location = error.sourceLocations?.[0];
  const notes = [location?.label, error.help].filter((note): note is string => typeof note === 'string' && note !== '').map(withoutLocalId);
  const message = `${withoutLocalId(error.message)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  return { line: location === undefined ? null : lines.lineOf(location.start), message };
}

function withoutLocalId(text: string): string {
  return text.replace(/for policy `[^`]*`, /g, '');
}
