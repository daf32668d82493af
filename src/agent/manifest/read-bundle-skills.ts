// Reads the nested skills `skills/<skill>/SKILL.md` in sorted path order. A malformed, oversized,
// non-regular or symlinked one is skipped with a warning; a duplicate id keeps the first.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleSkill } from './bundle-manifest.js';
import { isRealDirectory } from './is-real-directory.js';
import type { ManifestLog } from './manifest-log.js';
import { parseSkillManifest } from './parse-skill-manifest.js';
import { readRegularFile } from './read-regular-file.js';

export const MAX_SKILL_MANIFEST_BYTES = 256 * 1024;

export async function readBundleSkills(dir: string, log?: ManifestLog): Promise<BundleSkill[]> {
  const skillsDir = join(dir, 'skills');
  if (!(await isRealDirectory(skillsDir))) return [];
  const folders = (await readdir(skillsDir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const skills: BundleSkill[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    const path = `skills/${folder.name}/SKILL.md`;
    if (folder.isSymbolicLink()) {
      log?.warn({ path: `skills/${folder.name}`, reason: 'symlink' }, 'Skipped a skill folder that is a symbolic link.');
      continue;
    }
    if (!folder.isDirectory()) continue;
    const read = await readRegularFile(join(skillsDir, folder.name, 'SKILL.md'), MAX_SKILL_MANIFEST_BYTES);
    if (read.kind === 'missing') continue;
    if (read.kind !== 'text') {
      log?.warn({ path, reason: read.kind }, 'Skipped a skill manifest that could not be read.');
      continue;
    }
    const parsed = parseSkillManifest(read.text, folder.name);
    if (!parsed.ok) {
      log?.warn({ path, reason: parsed.reason }, 'Skipped a malformed skill manifest.');
      continue;
    }
    if (seen.has(parsed.skill.id)) {
      log?.warn({ path, reason: 'duplicate-id', skillId: parsed.skill.id }, 'Skipped a skill whose id an earlier skill already uses.');
      continue;
    }
    seen.add(parsed.skill.id);
    skills.push(parsed.skill);
  }
  return skills;
}
