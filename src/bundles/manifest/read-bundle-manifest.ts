// Reads a staged bundle's manifest: AGENT.md (a regular file of at most 1 MiB of UTF-8 with YAML front
// matter), its nested skills and its plugin manifests. No front matter yields no id and is refused
// (SPEC.md); malformed front matter, or `skills`/`allowed-tools` of the wrong shape, is refused rather
// than guessed at, so a request can never silently widen.
import { join } from 'node:path';
import type { BundleManifest } from './bundle-manifest.js';
import type { ManifestLog } from './manifest-log.js';
import { ManifestRejected } from './manifest-rejected.js';
import { parseFrontMatter } from './parse-front-matter.js';
import { readBundlePlugins } from './read-bundle-plugins.js';
import { readBundleSkills } from './read-bundle-skills.js';
import { readRegularFile } from './read-regular-file.js';
import { resolveAgentId } from './resolve-agent-id.js';
import { splitFrontMatter } from './split-front-matter.js';

export const MAX_AGENT_MANIFEST_BYTES = 1024 * 1024;

export async function readBundleManifest(dir: string, uploadName?: string, log?: ManifestLog): Promise<BundleManifest> {
  const read = await readRegularFile(join(dir, 'AGENT.md'), MAX_AGENT_MANIFEST_BYTES);
  if (read.kind === 'missing') throw new ManifestRejected('missing-agent-manifest');
  if (read.kind === 'not-regular') throw new ManifestRejected('agent-manifest-not-regular');
  if (read.kind !== 'text') throw new ManifestRejected('invalid-agent-manifest', { cause: read.kind });
  const split = splitFrontMatter(read.text);
  if (split.kind === 'none') throw new ManifestRejected('unresolvable-agent-id', { cause: 'no-front-matter' });
  if (split.kind === 'unterminated') throw new ManifestRejected('invalid-agent-manifest', { cause: 'unterminated-front-matter' });
  const parsed = parseFrontMatter(split.yaml);
  if (!parsed.ok) throw new ManifestRejected('invalid-agent-manifest', { cause: parsed.cause });
  const frontMatter = parsed.frontMatter;
  const id = resolveAgentId(frontMatter, uploadName);
  if (id === null) throw new ManifestRejected('unresolvable-agent-id');
  const name = frontMatter.text('name');
  const description = frontMatter.text('description');
  const version = frontMatter.text('version');
  const skillIds = frontMatter.list('skills');
  const allowedTools = frontMatter.list('allowed-tools');
  if (!name.ok || !description.ok || !version.ok || !skillIds.ok || !allowedTools.ok) {
    throw new ManifestRejected('invalid-agent-manifest', { cause: 'wrong-shape' });
  }
  const skills = await readBundleSkills(dir, log);
  const known = new Set(skills.map((skill) => skill.id));
  const unknown = (skillIds.value ?? []).filter((skillId) => !known.has(skillId));
  if (unknown.length > 0) log?.warn({ unknownSkillIds: unknown.length }, 'AGENT.md selects skills the bundle does not contain; they are ignored.');
  return {
    id,
    name: name.value?.trim() || null,
    description: description.value?.trim() || null,
    version: version.value?.trim() || null,
    systemPrompt: split.body.trim(),
    skillIds: skillIds.value,
    allowedTools: allowedTools.value,
    skills,
    plugins: await readBundlePlugins(dir, log),
  };
}
