// The host's own agents, for `delegate_task`: every folder with an AGENT.md under
// Agents:DiscoveryPaths (a discovery path may itself be such a folder). Read from disk on each lookup,
// so edits apply without a restart; an unreadable or malformed agent is skipped with a warning.
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { composeSystemPrompt, readBundleManifest, type BundleManifest, type ManifestLog } from '../manifest/index.js';

export interface HostAgent {
  readonly manifest: BundleManifest;
  readonly systemPrompt: string;
}

export class HostAgents {
  readonly #paths: readonly string[];
  readonly #log: ManifestLog;

  constructor(options: { discoveryPaths: readonly string[]; log: ManifestLog }) {
    this.#paths = options.discoveryPaths.filter((path) => path.trim() !== '');
    this.#log = options.log;
  }

  /** The first agent, in discovery order, whose id is exactly `id`. */
  async find(id: string): Promise<HostAgent | undefined> {
    for (const dir of await this.#candidates()) {
      const manifest = await this.#read(dir);
      if (manifest?.id === id) return { manifest, systemPrompt: composeSystemPrompt(manifest) };
    }
    return undefined;
  }

  async #candidates(): Promise<string[]> {
    const dirs: string[] = [];
    for (const path of this.#paths) {
      const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
      if (entries.some((entry) => entry.isFile() && entry.name === 'AGENT.md')) dirs.push(path);
      for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        dirs.push(join(path, entry.name));
      }
    }
    return dirs;
  }

  async #read(dir: string): Promise<BundleManifest | undefined> {
    try {
      return await readBundleManifest(dir, basename(dir), this.#log);
    } catch (error) {
      if ((error as { reason?: string }).reason !== 'missing-agent-manifest') {
        this.#log.warn({ agentDir: basename(dir), reason: (error as { reason?: string }).reason ?? 'unreadable' }, 'host agent skipped');
      }
      return undefined;
    }
  }
}
