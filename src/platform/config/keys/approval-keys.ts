// Keys of AppConfig:AI:Approvals (DESIGN.md §13): supervised execution, who decides, how long an
// approval waits and whom it escalates to. Off by default: Supervised then refuses like Restricted.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { listCodec } from '../codecs/list-codec.js';
import { nameCodec } from '../codecs/text-codecs.js';
import { optionalTimeSpanCodec, timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:Approvals:${name}` as const;

export const approvalKeys = defineKeys([
  {
    key: at('Enabled'),
    codec: booleanCodec,
    default: false,
    meaning: 'Supervised means a person decides each tool call (off: Supervised refuses like Restricted); turns on tool-call approvals.',
  },
  {
    key: at('ApproverRoles'),
    codec: listCodec(nameCodec),
    default: ['Harness.Approvals.Decide'],
    meaning: 'Callers with one of these roles see and decide every approval routed to approvers, whoever owns the run.',
  },
  {
    key: at('AllowSelfApproval'),
    codec: booleanCodec,
    default: true,
    meaning: 'false: the run’s owner may not decide its own approvals (separation of duties); an approver must.',
  },
  {
    key: at('DefaultTimeout'),
    codec: timeSpanCodec,
    default: '1.00:00:00',
    meaning: 'An undecided approval expires after this (a gate’s own timeout wins); expiry counts as rejection.',
  },
  {
    key: at('EscalateAfter'),
    codec: optionalTimeSpanCodec,
    default: null,
    meaning: 'Once this has passed undecided, the approval is also routed to EscalationRoles (once); unset: never.',
  },
  {
    key: at('EscalationRoles'),
    codec: listCodec(nameCodec),
    default: [],
    meaning: 'Roles an approval is routed to once EscalateAfter has passed.',
  },
]);
