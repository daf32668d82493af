// One nested SKILL.md: front matter is required; the id is `id`, else `name`, else the skill's folder
// name; the name defaults to the id and the description to empty; the body is the rest. Returns the
// reason instead of a skill when the file is malformed.
import type { BundleSkill } from './bundle-manifest.js';
import { parseFrontMatter } from './parse-front-matter.js';
import { normalizeId } from './resolve-agent-id.js';
import { splitFrontMatter } from './split-front-matter.js';

export type ParsedSkillManifest = { readonly ok: true; readonly skill: BundleSkill } | { readonly ok: false; readonly reason: string };

export function parseSkillManifest(text: string, folderName: string): ParsedSkillManifest {
  const split = splitFrontMatter(text);
  if (split.kind !== 'present') return { ok: false, reason: split.kind === 'none' ? 'no-front-matter' : 'unterminated-front-matter' };
  const parsed = parseFrontMatter(split.yaml);
  if (!parsed.ok) return { ok: false, reason: parsed.cause };
  const id = parsed.frontMatter.text('id');
  const name = parsed.frontMatter.text('name');
  const description = parsed.frontMatter.text('description');
  if (!id.ok || !name.ok || !description.ok) return { ok: false, reason: 'wrong-shape' };
  const candidate = [id.value, name.value, folderName].find((value) => value !== null && value.trim() !== '') ?? '';
  const skillId = normalizeId(candidate);
  if (skillId === null) return { ok: false, reason: 'invalid-id' };
  return {
    ok: true,
    skill: { id: skillId, name: name.value?.trim() || skillId, description: description.value?.trim() ?? '', body: split.body.trim() },
  };
}
