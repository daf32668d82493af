// An uploaded agent's A2A 1.0 agent card (DESIGN §20): name, description and version from AGENT.md,
// one skill per skill the agent uses, the one JSON-RPC interface at `<origin>/a2a/{handle}` (the origin
// as the client reached this service: request-origin.ts), streaming on and push notifications off, and
// one HTTP-auth security scheme (Bearer) whose description names the identity provider's authority, so a
// client knows where to get a token. The card is the caller's own: it is served only to the handle's owner.
import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import { selectSkills } from '../agent/index.js';
import type { BundleHandle } from '../bundles/index.js';
import { authorityFor } from '../platform/auth/index.js';
import type { AuthConfig } from '../platform/config/types.js';

export const A2A_PROTOCOL_VERSION = '1.0';
export const JSONRPC_BINDING = 'JSONRPC';
/** The name of the card's security scheme (and of its one requirement). */
const BEARER = 'bearer';

/** Where a handle's agent answers JSON-RPC, relative to the service's origin. */
export function a2aPath(handle: string): string {
  return `/a2a/${encodeURIComponent(handle)}`;
}

export function agentCardOf(handle: BundleHandle, origin: string, auth: AuthConfig): AgentCard {
  const { manifest } = handle;
  return {
    name: manifest.name ?? manifest.id,
    description: manifest.description ?? '',
    supportedInterfaces: [{ url: `${origin}${a2aPath(handle.handle)}`, protocolBinding: JSONRPC_BINDING, protocolVersion: A2A_PROTOCOL_VERSION, tenant: '' }],
    provider: undefined,
    // A2A requires a version; AGENT.md may not say one.
    version: manifest.version ?? '0.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: { [BEARER]: { scheme: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer', bearerFormat: 'JWT', description: bearerDescription(auth) } } } },
    securityRequirements: [{ schemes: { [BEARER]: { list: [] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: selectSkills(manifest).map(skillOf),
    signatures: [],
  };
}

function skillOf(skill: { readonly id: string; readonly name: string; readonly description: string }): AgentSkill {
  return { id: skill.id, name: skill.name, description: skill.description, tags: [skill.id], examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
}

function bearerDescription(auth: AuthConfig): string {
  if (auth.tenantId === null || auth.clientId === null) return 'Anonymous development mode: no identity provider; every caller is the one anonymous principal.';
  return `A JWT for the audience api://${auth.clientId}, issued by the identity provider at ${authorityFor(auth.instance, auth.tenantId)}.`;
}
