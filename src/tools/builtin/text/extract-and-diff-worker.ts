// The worker that runs regex extraction and line diffs off the event loop (a backtracking pattern or a
// large diff can take unbounded time). The script is an inline string so it runs unchanged from src/
// under vitest and from dist/; it loads only `diff`, so a respawn after a runaway pattern is cheap.
import { createRequire } from 'node:module';
import { BoundedWorker } from './bounded-worker.js';

const script = `
const jsdiff = require(workerData.diffPath);

function extract(request) {
  const matches = [];
  let captured = 0;
  let truncated = false;
  for (const found of request.text.matchAll(new RegExp(request.pattern, request.flags))) {
    const groups = Object.create(null);
    let size = found[0].length;
    for (let i = 1; i < found.length; i += 1) {
      groups[i] = found[i] === undefined ? null : found[i];
      size += found[i] === undefined ? 0 : found[i].length;
    }
    for (const [name, value] of Object.entries(found.groups || {})) {
      groups[name] = value === undefined ? null : value;
      size += value === undefined ? 0 : value.length;
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

function diff(request) {
  const patch = jsdiff.structuredPatch('before', 'after', request.before, request.after, undefined, undefined, { context: 3 });
  let additions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions += 1;
      else if (line.startsWith('-')) deletions += 1;
    }
  }
  const text = patch.hunks.length === 0 ? '' : jsdiff.formatPatch(patch, jsdiff.FILE_HEADERS_ONLY);
  return { diff: text, additions, deletions };
}

function handle(request) {
  if (request.op === 'extract') return extract(request);
  if (request.op === 'diff') return diff(request);
  throw new Error('unknown request');
}
`;

export function createExtractAndDiffWorker(timeoutMs: number): BoundedWorker {
  const require = createRequire(import.meta.url);
  return new BoundedWorker({
    script,
    workerData: { diffPath: require.resolve('diff') },
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
