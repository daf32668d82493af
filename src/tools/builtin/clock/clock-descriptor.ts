// The clock tool's catalog descriptor: flags per DESIGN §4 and one parameters schema per operation. It
// holds no behaviour.
import type { ToolDescriptor } from '../../tool.js';

const timeZone = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone name, e.g. "Europe/Berlin" or "America/New_York".',
} as const;

export const clockDescriptor: ToolDescriptor = {
  name: 'clock',
  description: 'Current time and time-zone conversion using the IANA time-zone database.',
  operations: [
    {
      name: 'now',
      description:
        'The current time as { iso (UTC), epochMs, timeZone, local (wall time with offset) }. timeZone defaults to UTC.',
      parameters: {
        type: 'object',
        properties: { timeZone },
        additionalProperties: false,
      },
    },
    {
      name: 'convert',
      description:
        'Converts an ISO 8601 time to another zone, returning { iso (UTC), timeZone, local, offset }. A time with Z or ' +
        'an offset is an instant; a time without one is a wall time in "from" (then required). Wall times skipped ' +
        'by a DST gap move forward by the gap; wall times repeated by a fall-back take the earlier instant.',
      parameters: {
        type: 'object',
        properties: {
          time: {
            type: 'string',
            minLength: 10,
            maxLength: 64,
            description: 'YYYY-MM-DD[THH:mm[:ss[.fff]]][Z|±HH:MM], e.g. "2026-03-08T02:30:00" or "2026-03-08T07:30Z".',
          },
          to: { ...timeZone, description: 'IANA time zone to convert to.' },
          from: { ...timeZone, description: 'IANA time zone a time without offset is read in.' },
        },
        required: ['time', 'to'],
        additionalProperties: false,
      },
    },
  ],
  riskTier: 'Trivial',
  isReadOnly: true,
  isConcurrencySafe: true,
  isDirectlyInvocable: true,
  reachesNetwork: false,
};
