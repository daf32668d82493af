// The authenticated caller as the rest of the service sees it, plus the one synthetic principal of
// anonymous mode. Carries identity only; envelopes and ownership checks live elsewhere.

export interface Principal {
  /** Owner key, prefixed with the claim family it came from: `oid:…`, `sub:…`, `name:…`, or `anonymous:dev`. */
  readonly ownerId: string;
  /** The raw claim value the owner id was taken from. */
  readonly ownerClaimValue: string;
  /** `nameidentifier` claim, else `sub`, else null: the envelope `BySubject` key. */
  readonly subjectId: string | null;
  /** Union of the role claims, exact and deduplicated. */
  readonly roles: readonly string[];
  readonly anonymous: boolean;
  /** The `name` claim, else `preferred_username`, else null (absent: null): how approvals name people. */
  readonly displayName?: string | null;
  /** The token's string-valued claims (bounded; principal-from-claims.ts), which policies read as tags (DESIGN.md §18); absent: none. */
  readonly claims?: Readonly<Record<string, string>>;
}

/** Every request in anonymous mode authenticates as this one principal (all callers share one owner). */
export const ANONYMOUS_PRINCIPAL: Principal = Object.freeze({
  ownerId: 'anonymous:dev',
  ownerClaimValue: 'anonymous',
  subjectId: null,
  roles: Object.freeze([]),
  anonymous: true,
});
