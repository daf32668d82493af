// Warnings about envelopes that cannot do what they seem to grant: servers without tools are
// inert (SPEC.md), and a server name no McpServers entry defines can never be contacted.
// Nothing here refuses start-up; the AutonomyCeiling checks are the codec's.
import type { EnvelopeGrantConfig } from '../types.js';
import type { ConfigRule } from './config-rule.js';

const ENVELOPES = 'AppConfig:AI:BundleExecution:Envelopes';

export const envelopeRule: ConfigRule = {
  reads: [],
  check({ bundleExecution: { envelopes }, mcpServers }, report) {
    const grants: [string, EnvelopeGrantConfig][] = [
      [`${ENVELOPES}:Default`, envelopes.default],
      ...Object.entries(envelopes.bySubject).map(([id, grant]): [string, EnvelopeGrantConfig] => [`${ENVELOPES}:BySubject:${id}`, grant]),
      ...Object.entries(envelopes.byRole).map(([role, grant]): [string, EnvelopeGrantConfig] => [`${ENVELOPES}:ByRole:${role}`, grant]),
    ];
    for (const [key, grant] of grants) {
      if (grant.allowedMcpServers.length > 0 && grant.allowedTools.length === 0) {
        report.warning(`${key}:AllowedMcpServers: has no effect while AllowedTools is empty (every call is denied)`);
      }
      for (const server of grant.allowedMcpServers) {
        if (!Object.hasOwn(mcpServers, server)) report.warning(`${key}:AllowedMcpServers: names "${server}", which no AppConfig:AI:McpServers entry defines`);
      }
    }
  },
};
