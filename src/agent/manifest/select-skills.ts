// The nested skills an agent uses: all of them when AGENT.md names none, otherwise the named ones in
// the order AGENT.md lists them (unknown ids are ignored).
import type { BundleManifest, BundleSkill } from './bundle-manifest.js';

export function selectSkills(manifest: Pick<BundleManifest, 'skillIds' | 'skills'>): BundleSkill[] {
  if (manifest.skillIds === null) return [...manifest.skills];
  const byId = new Map(manifest.skills.map((skill) => [skill.id, skill]));
  return manifest.skillIds.flatMap((id) => byId.get(id) ?? []);
}
