// A registered bundle: its opaque handle, where it is staged and what its manifest declares. Owned by
// the caller that uploaded it.
import type { BundleManifest } from './manifest/index.js';

export interface BundleHandle {
  readonly handle: string;
  readonly ownerId: string;
  /** The private staging directory stageArchive created. */
  readonly dir: string;
  readonly manifest: BundleManifest;
  /** AGENT.md body plus the selected skills (composeSystemPrompt), computed once at registration. */
  readonly systemPrompt: string;
  readonly createdAt: number;
}
