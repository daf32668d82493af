// The agent's system prompt (DESIGN.md §5): the AGENT.md body, then each selected skill's name,
// description and body under a "Skills" heading. Empty parts are left out.
import type { BundleManifest } from './bundle-manifest.js';
import { selectSkills } from './select-skills.js';

export function composeSystemPrompt(manifest: BundleManifest): string {
  const parts: string[] = [];
  if (manifest.systemPrompt.trim() !== '') parts.push(manifest.systemPrompt.trim());
  const skills = selectSkills(manifest);
  if (skills.length > 0) {
    parts.push('# Skills');
    for (const skill of skills) {
      parts.push(`## ${skill.name}`);
      if (skill.description !== '') parts.push(skill.description);
      if (skill.body !== '') parts.push(skill.body);
    }
  }
  return parts.join('\n\n');
}
