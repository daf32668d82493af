// Messages between instances about one run, typed: what a cancel (and its cause) or a decided approval
// says to the instance executing the run. Sent as JSON on the run's signal topic; anything else heard there is
// ignored (a hint from a newer or older build is never misread).

import type { CancelCause } from './stop-reasons.js';

export type RunMessage =
  | { readonly type: 'cancel'; readonly cause: CancelCause }
  | { readonly type: 'approval-decided'; readonly approvalId: string };

/** At most the signal bus's message length: causes and ids are short, service-written strings. */
export function encodeRunMessage(message: RunMessage): string {
  return JSON.stringify(message);
}

export function decodeRunMessage(text: string): RunMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, cause, approvalId } = value as Record<string, unknown>;
  // A cancel from an older build carried reason text instead of a cause: a plain cancel.
  if (type === 'cancel') return { type, cause: cause === 'client-too-slow' ? cause : 'cancelled' };
  if (type === 'approval-decided' && typeof approvalId === 'string') return { type, approvalId };
  return undefined;
}
