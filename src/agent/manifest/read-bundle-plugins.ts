// Reads plugin manifests from the root `plugin.json`, `plugins/<p>/plugin.json` and
// `plugins/<p>/.claude-plugin/plugin.json`, in that order (plugins sorted by folder name). Each must be
// a regular file of at most 256 KiB holding a JSON object no deeper than 64 levels; prototype keys are
// dropped. Anything else is skipped with a warning. Carried, not yet wired into runs.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import secureJsonParse from 'secure-json-parse';
import type { BundlePlugin } from './bundle-manifest.js';
import { isRealDirectory } from './is-real-directory.js';
import type { ManifestLog } from './manifest-log.js';
import { readRegularFile } from './read-regular-file.js';

export const MAX_PLUGIN_MANIFEST_BYTES = 256 * 1024;
export const MAX_PLUGIN_JSON_DEPTH = 64;

export async function readBundlePlugins(dir: string, log?: ManifestLog): Promise<BundlePlugin[]> {
  const candidates = ['plugin.json'];
  if (await isRealDirectory(join(dir, 'plugins'))) {
    const folders = (await readdir(join(dir, 'plugins'), { withFileTypes: true })).filter((entry) => entry.isDirectory());
    for (const name of folders.map((folder) => folder.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      candidates.push(`plugins/${name}/plugin.json`);
      if (await isRealDirectory(join(dir, 'plugins', name, '.claude-plugin'))) candidates.push(`plugins/${name}/.claude-plugin/plugin.json`);
    }
  }
  const plugins: BundlePlugin[] = [];
  for (const path of candidates) {
    const read = await readRegularFile(join(dir, ...path.split('/')), MAX_PLUGIN_MANIFEST_BYTES);
    if (read.kind === 'missing') continue;
    const manifest = read.kind === 'text' ? parsePluginJson(read.text) : null;
    if (manifest === null) {
      log?.warn({ path, reason: read.kind === 'text' ? 'invalid-json' : read.kind }, 'Skipped a plugin manifest that is not a readable JSON object.');
      continue;
    }
    plugins.push({ path, manifest });
  }
  return plugins;
}

function parsePluginJson(text: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = secureJsonParse.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depthOf(value) > MAX_PLUGIN_JSON_DEPTH) return null;
  return value as Record<string, unknown>;
}

function depthOf(root: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[root, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_PLUGIN_JSON_DEPTH) return deepest;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return deepest;
}
