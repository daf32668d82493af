// One of Cedar's diagnostics as a line of a policy file and a message. Cedar names a policy by the
// id it gave it within the file it was handed (`for policy \`policy1\`, …`), which is not the id the
// set knows it by, so that prefix is dropped: the file and line say which policy it is.
import type { DetailedError } from '@cedar-policy/cedar-wasm/nodejs';
import type { SourceLines } from './source-lines.js';

export interface LocatedMessage {
  readonly line: number | null;
  readonly message: string;
}

export function locatedMessage(error: DetailedError, lines: SourceLines): LocatedMessage {
  const start = error.sourceLocations?.[0]?.start;
  const message = withoutLocalId(error.message);
  const help = error.help === null || error.help === '' ? '' : ` (${withoutLocalId(error.help)})`;
  return { line: start === undefined ? null : lines.lineOf(start), message: `${message}${help}` };
}

function withoutLocalId(text: string): string {
  return text.replace(/for policy `[^`]*`, /g, '');
}
