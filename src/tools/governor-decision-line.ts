// The governor's log line for one decision. Every field is the framework's own: the owner id the
// authenticator derived, the tool and operation names from the registry's descriptors (the governor
// only uses this line when the operation is one the tool declares), the surface, the verdict and the
// envelope rule or fixed denial text. Never the parameters.
import { FrameworkLogLine } from '../platform/log/index.js';

export class GovernorDecisionLine extends FrameworkLogLine {
  constructor(
    readonly owner: string,
    readonly tool: string,
    readonly operation: string,
    readonly surface: string,
    readonly verdict: 'allowed' | 'denied',
    readonly reason: string,
  ) {
    super();
  }
}
