// AGENT.md must be a regular file at the archive root, and every SKILL.md anywhere must be a regular
// file: a link or a directory in their place is refused before anything is written.
import type { ArchiveEntry } from './archive-entry.js';
import { archiveNamespace } from './archive-namespace.js';
import { ArchiveRejected } from './archive-rejected.js';

export const AGENT_MANIFEST_NAME = 'AGENT.md';
export const SKILL_MANIFEST_NAME = 'SKILL.md';

export function checkManifestEntries(entries: readonly ArchiveEntry[]): void {
  const kinds = archiveNamespace(entries);
  const agent = kinds.get(AGENT_MANIFEST_NAME);
  if (agent === undefined) throw new ArchiveRejected('missing-agent-manifest');
  if (agent !== 'file') throw new ArchiveRejected('agent-manifest-not-regular');
  for (const [path, kind] of kinds) {
    if (kind !== 'file' && path.split('/').at(-1) === SKILL_MANIFEST_NAME) throw new ArchiveRejected('skill-manifest-not-regular');
  }
}
