// Authorization in one place: the envelope an action is governed by, the role it needs, its audit line.
export { AccessPolicy, INVOKE_ROLE, EVALS_ROLE, INVOKE_FORBIDDEN_DETAIL, EVALS_FORBIDDEN_DETAIL, type AccessAction, type AccessContext } from './access-policy.js';
