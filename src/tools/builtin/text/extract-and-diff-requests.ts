// Runs on the text tool's worker threads (extract-and-diff-worker.ts): regex extraction and line diffs,
// which a backtracking pattern or a large input can keep busy for unbounded time. Loads only `diff`, so
// a respawn after a runaway pattern is cheap. Inputs were checked by the operations before they came here.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';

export interface ExtractRequest {
  readonly op: 'extract';
  readonly text: string;
  readonly pattern: string;
  readonly flags: string;
  readonly maxMatches: number;
  readonly maxCapturedChars: number;
}

export interface DiffRequest {
  readonly op: 'diff';
  readonly before: string;
  readonly after: string;
}

export interface ExtractedMatch {
  readonly match: string;
  readonly index: number;
  readonly groups: Record<string, string | null>;
}

function extract(request: ExtractRequest): { matches: ExtractedMatch[]; truncated: boolean } {
  const matches: ExtractedMatch[] = [];
  let captured = 0;
  let truncated = false;
  for (const found of request.text.matchAll(new RegExp(request.pattern, request.flags))) {
    const groups: Record<string, string | null> = Object.create(null) as Record<string, string | null>;
    let size = found[0].length;
    for (let i = 1; i < found.length; i += 1) {
      groups[i] = found[i] ?? null;
      size += found[i]?.length ?? 0;
    }
    for (const [name, value] of Object.entries(found.groups ?? {})) {
      groups[name] = value ?? null;
      size += value?.length ?? 0;
    }
    if (matches.length === request.maxMatches || captured + size > request.maxCapturedChars) {
      truncated = true;
      break;
    }
    captured += size;
    matches.push({ match: found[0], index: found.index, groups });
  }
  return { matches, truncated };
}

function diff(request: DiffRequest): { diff: string; additions: number; deletions: number } {
  const patch = structuredPatch('before', 'after', request.before, request.after, undefined, undefined, { context: 3 });
  let additions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions += 1;
      else if (line.startsWith('-')) deletions += 1;
    }
  }
  const text = patch.hunks.length === 0 ? '' : formatPatch(patch, FILE_HEADERS_ONLY);
  return { diff: text, additions, deletions };
}

export function handle(request: unknown): unknown {
  const typed = request as ExtractRequest | DiffRequest;
  if (typed.op === 'extract') return extract(typed);
  if (typed.op === 'diff') return diff(typed);
  throw new Error('unknown request');
}
