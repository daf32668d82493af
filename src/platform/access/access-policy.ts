// Authorization in one place (STYLE.md habit 11): every service asks here, with the caller's principal
// and what it is about to do, for the capability envelope that governs it. The one resolution of the
// envelope per request; the role an action needs (undistinguished from a disabled surface: both are
// the same 403); and the audit line `envelope.resolved` for each run started. Routes never resolve
// envelopes; services call this. Ownership is the storage port's (foreign ≡ unknown by construction).
import type { AuditChannel, AuditLog, AuditSurface } from '../audit/index.js';
import type { Principal } from '../auth/index.js';
import type { EnvelopesConfig } from '../config/types.js';
import { resolveEnvelope, type ResolvedEnvelope } from '../envelope/index.js';
import { ProblemError } from '../problems/index.js';

export const INVOKE_ROLE = 'Harness.Tools.Invoke';
export const EVALS_ROLE = 'Harness.Evals.Execute';
export const INVOKE_FORBIDDEN_DETAIL = 'Direct tool invocation is not permitted for this caller.';
export const EVALS_FORBIDDEN_DETAIL = 'Evaluation runs need the role Harness.Evals.Execute and AppConfig:AI:Evaluation:Enabled set to true.';

/** What a caller is about to do. */
export type AccessAction = 'tools.read' | 'capabilities.read' | 'tools.invoke' | 'bundles.run' | 'workflows.run' | 'evals.run' | 'evals.datasets';

interface ActionRule {
  /** A role the caller must hold, and the 403 detail when they do not (or the surface is off). */
  readonly role?: { readonly name: string; readonly forbidden: string };
  /** Starting a run of this kind is audited under this surface. */
  readonly audit?: AuditSurface;
}

const RULES: Readonly<Record<AccessAction, ActionRule>> = {
  'tools.read': {},
  'capabilities.read': {},
  'tools.invoke': { role: { name: INVOKE_ROLE, forbidden: INVOKE_FORBIDDEN_DETAIL } },
  'bundles.run': { audit: 'bundle' },
  'workflows.run': { audit: 'workflow' },
  'evals.run': { role: { name: EVALS_ROLE, forbidden: EVALS_FORBIDDEN_DETAIL }, audit: 'eval' },
  // A caller's own datasets (DESIGN.md §19): gated as runs are, but no run starts, so nothing is audited.
  'evals.datasets': { role: { name: EVALS_ROLE, forbidden: EVALS_FORBIDDEN_DETAIL } },
};

export interface AccessContext {
  /** False when the surface is disabled on this host: refused exactly like a missing role. */
  readonly surfaceEnabled?: boolean;
  /** The run being started (audited actions). */
  readonly jobId?: string;
  /** The request that asked (X-Request-Id), for the audit line. */
  readonly requestId?: string | null;
  /** The door a bundle run came through when not the bundle routes (`a2a`), for the audit line. */
  readonly channel?: AuditChannel;
}

export class AccessPolicy {
  readonly #envelopes: EnvelopesConfig;
  readonly #audit: AuditLog;

  constructor(options: { readonly envelopes: EnvelopesConfig; readonly audit: AuditLog }) {
    this.#envelopes = options.envelopes;
    this.#audit = options.audit;
  }

  /** The envelope governing `action` for this caller; throws the action's 403 when a role or the surface is missing. */
  authorize(principal: Principal, action: AccessAction, context: AccessContext = {}): ResolvedEnvelope {
    const rule = RULES[action];
    if (rule.role !== undefined && (context.surfaceEnabled === false || !principal.roles.includes(rule.role.name))) {
      throw new ProblemError('forbidden', rule.role.forbidden);
    }
    const envelope = resolveEnvelope(this.#envelopes, principal);
    if (rule.audit !== undefined) this.#audit.envelopeResolved(principal.ownerId, rule.audit, envelope, {
        jobId: context.jobId ?? null,
        reqId: context.requestId ?? null,
        ...(context.channel === undefined ? {} : { channel: context.channel }),
      });
    return envelope;
  }
}
