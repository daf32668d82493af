// A subscription's signing secret and the Standard Webhooks signature made with it: `whsec_` and the
// base64 of 24 random bytes; the signature is `v1,` and the base64 HMAC-SHA256, keyed with the
// base64-decoded part after `whsec_`, of "<webhook-id>.<webhook-timestamp>.<body>".
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const SECRET_BYTES = 24;

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The `webhook-signature` header value for one attempt. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
