// The two annotations the policy layer reads (DESIGN §18): `@id("…")`, the policy's id in decisions
// and the audit line, and `@approval("required")`, which makes a matching permit ask a person. Any other
// `@approval` value is a warning, not a silent no: the author meant something.
import type { PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';

export interface PolicyAnnotations {
  readonly id: string | null;
  readonly approval: boolean;
  readonly problem: string | null;
  readonly warning: string | null;
}

export const APPROVAL_REQUIRED = 'required';

export function annotationsOf(policy: PolicyJson): PolicyAnnotations {
  const annotations = policy.annotations ?? {};
  const id = Object.hasOwn(annotations, 'id') ? annotations['id'] : undefined;
  const approval = Object.hasOwn(annotations, 'approval') ? annotations['approval'] : undefined;
  const problem = id === null || id === '' ? '@id needs a non-empty value, e.g. @id("refund-limit")' : null;
  const warning =
    approval === undefined || approval === APPROVAL_REQUIRED
      ? null
      : `@approval(${JSON.stringify(approval)}) is ignored: only @approval("${APPROVAL_REQUIRED}") makes a matching permit ask a person`;
  return { id: typeof id === 'string' && id !== '' ? id : null, approval: approval === APPROVAL_REQUIRED, problem, warning };
}
