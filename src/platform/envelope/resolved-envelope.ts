// The shape of a resolved capability envelope and of the caller it is resolved for. Types only; the
// resolution rules live in resolve-envelope.ts.
import type { AutoApproveTier } from './auto-approve.js';
import type { AutonomyTier } from './autonomy.js';
import type { Budget } from './budget.js';

/** A Principal is structurally compatible. */
export interface EnvelopeSubject {
  readonly subjectId: string | null;
  readonly roles: readonly string[];
  readonly anonymous: boolean;
  readonly claims?: Readonly<Record<string, string>>;
}

/**
 * Whom an envelope was resolved for, as policies see the caller (DESIGN.md §18): the subject (`""`
 * when none), the roles and the string-valued claims. A run keeps it with its envelope, so its calls
 * are judged as its starter's wherever and whenever they run.
 */
export interface EnvelopeCaller {
  readonly subject: string;
  readonly roles: readonly string[];
  readonly claims: Readonly<Record<string, string>>;
}

export type EnvelopeSource = 'subject' | 'roles' | 'default' | 'anonymous';

export interface ResolvedEnvelope {
  readonly source: EnvelopeSource;
  /** Roles that contributed (source 'roles'), sorted; empty otherwise. */
  readonly matchedRoles: readonly string[];
  /** Lower-cased canonical patterns (`mcp__S` spelled `mcp__S__*`), deduplicated, sorted. */
  readonly allowedTools: readonly string[];
  /** Lower-cased, deduplicated, sorted. */
  readonly allowedMcpServers: readonly string[];
  readonly autonomyCeiling: AutonomyTier;
  /** Under Supervised with approvals on: risk tiers at or below this run without asking (absent: None). */
  readonly autoApproveUpTo?: AutoApproveTier;
  /** Spend limits (DESIGN §16); absent on a run stored before limits existed: none. */
  readonly budget?: Budget;
  /** Whom it was resolved for (DESIGN §18); absent on a run stored before policies existed: no subject, roles or claims. */
  readonly caller?: EnvelopeCaller;
}
