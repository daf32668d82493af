// Reads a staged bundle's manifest: AGENT.md (a regular file of at most 1 MiB of UTF-8 with YAML front
// matter), its nested skills and its plugin manifests. No front matter yields no id and is refused
// (SPEC.md); malformed front matter, or `skills`/`allowed-tools` of the wrong shape, is refused rather
// than guessed at, so a request can never silently widen.
import { join } from 'node:path';
import type { BundleManifest } from './bundle-manifest.js';
import type { ManifestLog } from './manifest-log.js';
import { ManifestRejected } from './manifest-rejected.js';
import { MAX_FRONT_MATTER_DEPTH, parseFrontMatter } from './parse-front-matter.js';
import { readBundlePlugins } from './read-bundle-plugins.js';
import { readBundleSkills } from './read-bundle-skills.js';
import { readRegularFile } from './read-regular-file.js';
import { resolveAgentId } from './resolve-agent-id.js';
import { splitFrontMatter } from './split-front-matter.js';

export const MAX_AGENT_MANIFEST_BYTES = 1024 * 1024;

/** Where the front matter broke; AGENT.md line numbers count the opening `---` as line 1. */
function frontMatterHint(parsed: { readonly cause: string; readonly line?: number; readonly yamlCode?: string }): string {
  switch (parsed.cause) {
    case 'invalid-yaml':
      return `the front matter is not valid YAML${parsed.line === undefined ? '' : ` at AGENT.md line ${parsed.line + 1}`}${parsed.yamlCode === undefined ? '' : ` (${parsed.yamlCode})`}`;
    case 'too-large':
      return 'the front matter is over 64 KiB';
    case 'too-deep':
      return `the front matter nests deeper than ${MAX_FRONT_MATTER_DEPTH} levels`;
    case 'alias-limit':
      return 'the front matter uses too many YAML aliases';
    default:
      return 'the front matter must be a YAML mapping of fields (id, name, description, skills, allowed-tools, …)';
  }
}

export async function readBundleManifest(dir: string, uploadName?: string, log?: ManifestLog): Promise<BundleManifest> {
  const read = await readRegularFile(join(dir, 'AGENT.md'), MAX_AGENT_MANIFEST_BYTES);
  if (read.kind === 'missing') throw new ManifestRejected('missing-agent-manifest');
  if (read.kind === 'not-regular') throw new ManifestRejected('agent-manifest-not-regular');
  if (read.kind !== 'text') {
    const hint = read.kind === 'too-large' ? `AGENT.md is over ${MAX_AGENT_MANIFEST_BYTES} bytes` : 'AGENT.md is not UTF-8 text';
    throw new ManifestRejected('invalid-agent-manifest', { cause: read.kind, hint });
  }
  const split = splitFrontMatter(read.text);
  if (split.kind === 'none') throw new ManifestRejected('unresolvable-agent-id', { cause: 'no-front-matter' });
  if (split.kind === 'unterminated') {
    throw new ManifestRejected('invalid-agent-manifest', { cause: 'unterminated-front-matter', hint: 'the front matter opened by --- on line 1 has no closing --- line' });
  }
  const parsed = parseFrontMatter(split.yaml);
  if (!parsed.ok) throw new ManifestRejected('invalid-agent-manifest', { cause: parsed.cause, hint: frontMatterHint(parsed) });
  const frontMatter = parsed.frontMatter;
  const id = resolveAgentId(frontMatter, uploadName);
  if (id === null) throw new ManifestRejected('unresolvable-agent-id');
  const name = frontMatter.text('name');
  const description = frontMatter.text('description');
  const version = frontMatter.text('version');
  const skillIds = frontMatter.list('skills');
  const allowedTools = frontMatter.list('allowed-tools');
  const requireApproval = frontMatter.list('require-approval');
  if (!name.ok || !description.ok || !version.ok || !skillIds.ok || !allowedTools.ok || !requireApproval.ok) {
    const fields = { name, description, version, skills: skillIds, 'allowed-tools': allowedTools, 'require-approval': requireApproval };
    const wrong = Object.entries(fields).find(([, field]) => !field.ok)?.[0] ?? 'name';
    const expected = ['skills', 'allowed-tools', 'require-approval'].includes(wrong) ? 'a YAML list or a comma- or space-separated string' : 'a string';
    throw new ManifestRejected('invalid-agent-manifest', { cause: 'wrong-shape', hint: `front matter field '${wrong}' must be ${expected}` });
  }
  const skills = await readBundleSkills(dir, log);
  const known = new Set(skills.map((skill) => skill.id));
  const unknown = (skillIds.value ?? []).filter((skillId) => !known.has(skillId));
  if (unknown.length > 0) log?.warn({ unknownSkillIds: unknown.length }, 'AGENT.md selects skills the bundle does not contain; they are ignored.');
  const approvalRequest = approvalRequestOf(requireApproval.value);
  const unasked = unaskedApprovals(approvalRequest, allowedTools.value);
  if (unasked > 0) log?.warn({ requireApprovalNotInAllowedTools: unasked }, 'AGENT.md require-approval names tools its allowed-tools does not ask for; they are never offered, so those names change nothing.');
  return {
    id,
    name: name.value?.trim() || null,
    description: description.value?.trim() || null,
    version: version.value?.trim() || null,
    systemPrompt: split.body.trim(),
    skillIds: skillIds.value,
    allowedTools: allowedTools.value,
    requireApproval: approvalRequest,
    skills,
    plugins: await readBundlePlugins(dir, log),
  };
}

/** `require-approval: all` (alone) means every call; otherwise the tool names, lower-cased like envelope patterns. */
function approvalRequestOf(names: readonly string[] | null): readonly string[] | 'all' | null {
  if (names === null) return null;
  if (names.some((name) => name.trim().toLowerCase() === 'all')) return 'all';
  return [...new Set(names.map((name) => name.trim().toLowerCase()).filter((name) => name !== ''))];
}

/** How many require-approval names allowed-tools (when the bundle narrows at all) does not ask for. */
function unaskedApprovals(request: readonly string[] | 'all' | null, allowedTools: readonly string[] | null): number {
  if (request === null || request === 'all' || allowedTools === null) return 0;
  const asked = new Set(allowedTools.map((name) => name.trim().toLowerCase()));
  return request.filter((name) => !asked.has(name)).length;
}
