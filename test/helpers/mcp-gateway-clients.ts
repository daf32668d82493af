// Real MCP clients for the gateway, one per protocol revision it serves: the official v2 client pinned
// to 2026-07-28, the v1 SDK client (an older client library: the 2025-11-25 initialize handshake), and
// the v2 client offering only 2025-06-18. Each speaks Streamable HTTP to `/mcp` with a bearer token.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;
export type Revision = (typeof REVISIONS)[number];

export interface McpTestTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
}

export interface McpTestResult {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly isError?: boolean;
}

export interface McpTestClient {
  readonly negotiated: string | undefined;
  listTools(): Promise<McpTestTool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<McpTestResult>;
  close(): Promise<void>;
}

const info = { name: 'portcullis-tests', version: '1.0.0' };

/** A client connected to `url` (…/mcp) at `revision`, sending `token` as its bearer token (none: no header). */
export async function connectMcp(url: string, revision: Revision, token?: string): Promise<McpTestClient> {
  const requestInit = token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } };
  if (revision === '2025-11-25') {
    const client = new V1Client(info);
    await client.connect(new V1Transport(new URL(url), requestInit));
    return {
      negotiated: (client.transport as V1Transport | undefined)?.protocolVersion,
      listTools: async () => (await client.listTools()).tools,
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as McpTestResult,
      close: () => client.close(),
    };
  }
  const client = new Client(info, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), requestInit));
  return {
    negotiated: client.getNegotiatedProtocolVersion(),
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}
