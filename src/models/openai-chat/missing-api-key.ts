// Start-up's word on an OpenAI provider without ChatModel:ApiKey (issue 42): OpenAI's own API (the
// default Endpoint) cannot answer without one, so start-up is refused with the key named; any other
// endpoint may be a local server that needs none (Ollama, vLLM, llama.cpp), so a host that does not
// look local gets a warning, and a local one nothing. The key's value is never read here.
import { BlockList, isIP } from 'node:net';

/** Hosts whose API refuses every request without a key. */
const HOSTED_ONLY = new Set(['api.openai.com']);

const LOCAL_NETWORKS = new BlockList();
for (const [net, prefix] of [['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16], ['100.64.0.0', 10]] as const) {
  LOCAL_NETWORKS.addSubnet(net, prefix, 'ipv4');
}
LOCAL_NETWORKS.addAddress('::1', 'ipv6');
LOCAL_NETWORKS.addSubnet('fc00::', 7, 'ipv6');
LOCAL_NETWORKS.addSubnet('fe80::', 10, 'ipv6');

export type MissingKeyVerdict = 'refuse' | 'warn' | 'fine';

/** What start-up does about a missing key for requests to `baseUrl` (an absolute http(s) URL). */
export function missingApiKeyVerdict(baseUrl: string): MissingKeyVerdict {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (HOSTED_ONLY.has(host)) return 'refuse';
  const family = isIP(host);
  if (family !== 0) return LOCAL_NETWORKS.check(host, family === 4 ? 'ipv4' : 'ipv6') ? 'fine' : 'warn';
  // A single-label name (a Compose service, `localhost`) or a name under a local-only suffix.
  if (!host.includes('.') || /\.(?:localhost|local|internal|lan|home\.arpa)$/.test(host)) return 'fine';
  return 'warn';
}
