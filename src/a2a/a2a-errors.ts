// How the bundle plane's problems reach an A2A client (DESIGN §20). Inside a JSON-RPC call a problem
// becomes the protocol's error: a refused input is InvalidParams, an unknown or foreign task is
// TaskNotFound (one answer for both, by construction: the lookup is by owner), a refusal the caller
// cannot get past (§13's separation of duties, a decision already taken) is UnsupportedOperation with the
// problem's caller-safe detail. What is not about this call's input — a rate limit or the per-owner cap
// (429), the storage away (503), the handle gone (404) — is answered as the HTTP problem the bundle routes
// answer (`HttpRefusal`), so a client retries or re-registers as it would there. Anything else is a
// local fault: logged, and a generic internal error on the wire, never exception text.
import { A2AError, RequestMalformedError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { storageProblem } from '../platform/http/index.js';
import type { ProblemError } from '../platform/problems/index.js';
import { isProblemError } from '../platform/problems/index.js';

/** A problem answered as HTTP, not as a JSON-RPC error; carried out of the SDK's dispatch by the route. */
export class HttpRefusal extends Error {
  constructor(readonly problem: ProblemError) {
    super(problem.detail);
    this.name = 'HttpRefusal';
  }
}

/** The one message a local fault shows on the wire (the cause is in the host log). */
export const INTERNAL_FAULT = 'The agent could not answer this request; the host log has the cause.';

const HTTP_STATUSES = new Set([401, 403, 404, 429, 503]);

/** The error a failed call throws into the SDK's dispatch: an A2A error, an HttpRefusal, or a generic fault. */
export function toA2aError(thrown: unknown, log: { error(details: object, message: string): void }): Error {
  if (thrown instanceof HttpRefusal || thrown instanceof A2AError) return thrown;
  // The storage away (503) and a forged ListTasks pageToken (a list cursor: 400) as every surface says them.
  const error = storageProblem(thrown) ?? thrown;
  if (isProblemError(error)) {
    switch (error.code) {
      case 'validation-failed':
        return new RequestMalformedError(error.detail);
      case 'conflict':
      case 'forbidden':
        return new UnsupportedOperationError(error.detail);
      case 'not-found':
        return new TaskNotFoundError(TASK_NOT_FOUND);
      default:
        if (HTTP_STATUSES.has(statusOf(error))) return new HttpRefusal(error);
    }
  }
  log.error({ err: error }, 'an A2A call failed');
  return new Error(INTERNAL_FAULT);
}

/** One detail for every task the caller cannot see: unknown, foreign and expired alike. */
export const TASK_NOT_FOUND = 'Task not found. It may never have existed, expired, or belongs to a different caller.';

export function taskNotFound(): TaskNotFoundError {
  return new TaskNotFoundError(TASK_NOT_FOUND);
}

function statusOf(error: ProblemError): number {
  switch (error.code) {
    case 'unauthorized':
      return 401;
    case 'rate-limited':
      return 429;
    case 'unavailable':
      return 503;
    default:
      return 500;
  }
}
