// The webhook routes' problems (DESIGN.md §14). Foreign and unknown subscriptions are one 404.
import { ProblemError } from '../platform/problems/index.js';
import { MAX_WEBHOOKS_PER_OWNER } from './webhook-store.js';

export const webhookNotFound = (): ProblemError => new ProblemError('not-found', 'Webhook not found. It may never have existed, or belongs to a different caller.');

export const destinationRefused = (reason: string): ProblemError => new ProblemError('validation-failed', reason);

export const tooManyWebhooks = (): ProblemError =>
  new ProblemError('conflict', `You have ${MAX_WEBHOOKS_PER_OWNER} webhooks, the most one caller may have; delete one first.`);
