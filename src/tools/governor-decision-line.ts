// The governor's log line for one decision: the audit event `tool.call.decided` (docs/audit-events.md).
// Every field is the framework's own: the owner id the authenticator derived, the tool and operation
// names from the registry's descriptors (the governor only uses this line when the operation is one
// the tool declares), the surface, the verdict, the envelope rule or fixed denial text, the denial
// category, what refused an allowed call's arguments (if anything did), where the envelope came from
// and the request id (X-Request-Id rules). Never the parameters. The owner id is written as it is, not
// digested like the request line's: an audit event must say who (docs/audit-events.md).
import { FrameworkLogLine, jsonString, jsonStringOrNull } from '../platform/log/index.js';

export class GovernorDecisionLine extends FrameworkLogLine {
  readonly event = 'tool.call.decided';
  constructor(
    readonly owner: string,
    readonly tool: string,
    readonly operation: string,
    readonly surface: string,
    readonly verdict: 'allowed' | 'denied',
    readonly reason: string,
    /** not-granted, autonomy or data-classification; null when allowed. */
    readonly denial: string | null,
    /** Where the envelope came from: subject, roles, default or anonymous. */
    readonly envelope: string,
    readonly reqId: string | null,
    /** An allowed call refused for its arguments: undeclared-operation or invalid-parameters; else null. */
    readonly refusal: string | null = null,
    /** The policy layer's decision (DESIGN.md §18); null with no policy layer, or for a tool the envelope does not grant. */
    readonly policy: { readonly version: string; readonly decision: string; readonly determining: readonly string[]; readonly errors: readonly string[]; readonly mode: string } | null = null,
  ) {
    super();
  }

  /** A chain's calls write the same decision again and again: the same fields string each time. */
  override get repeatsFields(): boolean {
    return true;
  }

  /**
   * Every field, in the order pino wrote them (the line is written for every governed call). All but
   * the owner repeat from call to call of one step or tool: the last such tail is kept and written
   * again, not rebuilt piece by piece (a line cost a kilobyte of short-lived strings).
   */
  override logFields(): string {
    const tail = tailOf(this);
    if (this.owner !== lastOwner || tail !== lastFieldsTail) {
      lastOwner = this.owner;
      lastFieldsTail = tail;
      lastFields = `"owner":${jsonString(this.owner)},${tail}`;
    }
    return lastFields;
  }
}

let last: GovernorDecisionLine | undefined;
let lastTail = '';
/** The last line's fields, whole: the same owner and tail give the same string again (the logger keeps what follows it). */
let lastOwner = '';
let lastFieldsTail = '';
let lastFields = '';

function tailOf(line: GovernorDecisionLine): string {
  if (
    last !== undefined &&
    line.tool === last.tool &&
    line.operation === last.operation &&
    line.surface === last.surface &&
    line.verdict === last.verdict &&
    line.reason === last.reason &&
    line.denial === last.denial &&
    line.envelope === last.envelope &&
    line.reqId === last.reqId &&
    line.refusal === last.refusal &&
    line.policy === null &&
    last.policy === null
  ) {
    return lastTail;
  }
  const policy = line.policy === null ? 'null' : JSON.stringify(line.policy);
  lastTail =
    `"tool":${jsonString(line.tool)},"operation":${jsonString(line.operation)},"surface":${jsonString(line.surface)},` +
      `"verdict":"${line.verdict}","reason":${jsonString(line.reason)},"denial":${jsonStringOrNull(line.denial)},"envelope":${jsonString(line.envelope)},` +
      `"reqId":${jsonStringOrNull(line.reqId)},"refusal":${jsonStringOrNull(line.refusal)},"policy":${policy},"event":"tool.call.decided"`;
  last = line;
  return lastTail;
}
