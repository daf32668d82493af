// Builds the capabilities answer from pure envelope functions; no HTTP here.
import { explainTools, resolveEnvelope, type EnvelopeSubject } from '../platform/envelope/index.js';
import type { EnvelopesConfig } from '../platform/config/types.js';
import type { CapabilitiesResponse } from './schemas.js';

export function explainCapabilities(
  envelopes: EnvelopesConfig,
  who: EnvelopeSubject,
  hostToolNames: readonly string[],
): CapabilitiesResponse {
  const envelope = resolveEnvelope(envelopes, who);
  return {
    source: envelope.source,
    matchedRoles: [...envelope.matchedRoles],
    allowedTools: [...envelope.allowedTools],
    allowedMcpServers: [...envelope.allowedMcpServers],
    autonomyCeiling: envelope.autonomyCeiling,
    tools: explainTools(envelope, hostToolNames),
  };
}
