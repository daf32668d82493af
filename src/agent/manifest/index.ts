// An agent's definition: reading AGENT.md, nested skills and plugins from a folder (a staged bundle
// or a host agent), and composing the agent's system prompt. Re-exported by ../index.ts.
export type { BundleManifest, BundlePlugin, BundleSkill } from './bundle-manifest.js';
export type { ManifestLog } from './manifest-log.js';
export { ManifestRejected, type ManifestRejection } from './manifest-rejected.js';
export { readBundleManifest, MAX_AGENT_MANIFEST_BYTES } from './read-bundle-manifest.js';
export { composeSystemPrompt } from './compose-system-prompt.js';
export { selectSkills } from './select-skills.js';
