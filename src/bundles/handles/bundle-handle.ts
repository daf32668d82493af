// A registered bundle as the store keeps it: its opaque handle, owner and what its manifest declares.
// Plain data (it may live in PostgreSQL); where an instance staged the files is that instance's own
// business (staging-leases.ts).
import type { BundleManifest } from '../../agent/index.js';

export interface BundleHandle {
  readonly handle: string;
  readonly ownerId: string;
  readonly manifest: BundleManifest;
  /** AGENT.md body plus the selected skills (composeSystemPrompt), computed once at registration. */
  readonly systemPrompt: string;
  readonly createdAt: number;
  /** When it expires unless refreshed (TTL slides on every request naming it). */
  readonly expiresAt: number;
}
