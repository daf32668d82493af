// Keys of AppConfig:AI:BundleExecution:Envelopes: the shipped Default (no tools, no servers,
// Restricted) and the BySubject / ByRole maps, whose keys keep their spelling. An envelope that
// omits AutonomyCeiling is Restricted; one without a Budget limit has none (DESIGN §16).
import { autonomyCeilingCodec } from '../codecs/autonomy-ceiling-codec.js';
import { listCodec } from '../codecs/list-codec.js';
import { numberCodec } from '../codecs/number-codecs.js';
import { enumCodec, nameCodec } from '../codecs/text-codecs.js';
import { autoApproveTiers } from '../../envelope/auto-approve.js';
import { defineKeys } from '../define-keys.js';

const limitUsd = numberCodec({ min: 0, nullable: true });

function grantKeys<Prefix extends string>(prefix: Prefix, whose: string) {
  return defineKeys([
    {
      key: `${prefix}:AllowedTools`,
      codec: listCodec(nameCodec),
      default: [],
      meaning: `Tools ${whose} may invoke (mcp__S and mcp__S__* mean every tool of server S).`,
    },
    {
      key: `${prefix}:AllowedMcpServers`,
      codec: listCodec(nameCodec),
      default: [],
      meaning: `MCP servers ${whose} may contact.`,
    },
    {
      key: `${prefix}:AutonomyCeiling`,
      codec: autonomyCeilingCodec,
      default: 'Restricted',
      meaning: `Highest autonomy tier for ${whose}; an unknown name degrades to Restricted, numbers and comma lists are refused.`,
    },
    {
      key: `${prefix}:AutoApproveUpTo`,
      codec: enumCodec(autoApproveTiers),
      default: 'None',
      meaning: `Under Supervised with approvals on: granted tools of ${whose} whose riskTier is at or below this run without asking (roles combine to the lowest).`,
    },
    ...(['Run', 'Day', 'Month'] as const).map((period) => ({
      key: `${prefix}:Budget:MaxUsdPer${period}` as const,
      codec: limitUsd,
      default: null,
      defaultText: 'no limit',
      meaning: `Dollars ${whose} may spend on model calls per ${period === 'Run' ? 'run' : `UTC ${period.toLowerCase()}`} (DESIGN §16; roles combine to the smallest).`,
    })),
  ]);
}

const envelopes = 'AppConfig:AI:BundleExecution:Envelopes';

export const envelopeKeys = defineKeys([
  ...grantKeys(`${envelopes}:Default`, 'callers matching no subject or role'),
  ...grantKeys(`${envelopes}:BySubject:{subject}`, 'the subject (nameidentifier or sub claim)'),
  ...grantKeys(`${envelopes}:ByRole:{role}`, 'holders of the role (roles combine to the least privilege)'),
]);
