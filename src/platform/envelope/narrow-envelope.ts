// Narrows a resolved grant by what a bundle, workflow or eval asked for (its allowed-tools). A request
// is intersected with the grant's AllowedTools, so it can only narrow; servers and ceiling are untouched.
import type { ResolvedEnvelope } from './resolved-envelope.js';
import { intersectToolPatterns, normalizeToolPatterns } from './tool-pattern-set.js';

export interface EffectiveEnvelope {
  readonly grant: ResolvedEnvelope;
  /** The request already intersected with the grant's AllowedTools (canonical); null = no narrowing. */
  readonly requested: readonly string[] | null;
}

/** undefined = no narrowing; [] = nothing; names the grant does not cover are dropped. */
export function narrowEnvelope(grant: ResolvedEnvelope, requestedTools: readonly string[] | undefined): EffectiveEnvelope {
  const requested =
    requestedTools === undefined
      ? null
      : Object.freeze(intersectToolPatterns(normalizeToolPatterns(requestedTools), grant.allowedTools));
  return Object.freeze({ grant, requested });
}

/**
 * Narrows an envelope that may already be narrowed (a sub-agent's own allowed-tools under its
 * delegating bundle's request): the result is the intersection of every request with the grant.
 */
export function narrowFurther(envelope: ResolvedEnvelope | EffectiveEnvelope, requestedTools: readonly string[]): EffectiveEnvelope {
  if (!('grant' in envelope)) return narrowEnvelope(envelope, requestedTools);
  const within = envelope.requested ?? envelope.grant.allowedTools;
  return Object.freeze({ grant: envelope.grant, requested: Object.freeze(intersectToolPatterns(normalizeToolPatterns(requestedTools), within)) });
}
