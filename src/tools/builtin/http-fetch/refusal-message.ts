// Caller-facing text for a refused target. The first hop names the host the caller gave; a redirect
// hop names nothing, so a refused Location (perhaps an internal address) is never disclosed.
import type { TargetRefusal } from './vet-target.js';

export function refusalMessage(refusal: TargetRefusal, host: string | undefined): string {
  const subject = host === undefined ? 'The redirect target' : `The host "${host}"`;
  const prefix = host === undefined ? 'Redirect refused: ' : '';
  switch (refusal) {
    case 'scheme':
      return `${prefix}only http and https URLs can be fetched.`;
    case 'credentials':
      return `${prefix}URLs carrying a user name or password are not accepted.`;
    case 'not-allowed':
      return `${prefix}${subject} is not in Tools:HttpFetch:AllowedHosts.`;
    case 'restricted':
      return `${prefix}${subject} resolves to a private, loopback, link-local or reserved address that is not allowed.`;
    case 'unresolved':
      return `${prefix}${subject} could not be resolved.`;
  }
}
