// `portcullis mcp config [--client claude-code|cursor|vscode]`: the MCP client configuration for this
// service's gateway (DESIGN §15), for the caller. It asks the service first — the gateway's
// protected-resource document (404 while AppConfig:AI:McpGateway:Enabled is false) and the caller's
// capabilities (is the token good, how many tools are granted) — then prints the JSON Claude Code,
// Cursor and VS Code read. The token is never written into the configuration: each client reads it from
// the environment variable PORTCULLIS_TOKEN (VS Code prompts for it once), so the file can be shared.
import { unwrap } from '../../client/index.js';
import type { CommandSpec } from './command-spec.js';
import { CONNECTION_OPTIONS } from './connection.js';
import { EXIT, REMOTE_NOTES } from './exit-codes.js';
import { groupUsage, noArguments, runRemote, UsageError, type RemoteIo } from './remote-command.js';

export const MCP_CLIENTS = ['claude-code', 'cursor', 'vscode'] as const;
export type McpClientName = (typeof MCP_CLIENTS)[number];

const SERVER_NAME = 'portcullis';
const TOKEN_ENV = 'PORTCULLIS_TOKEN';

export const MCP_CONFIG_SPEC: CommandSpec = {
  name: 'mcp config',
  positionals: '',
  summary:
    'Print the MCP client configuration for this service’s gateway (/mcp): for Claude Code (.mcp.json), Cursor (~/.cursor/mcp.json) and VS Code (.vscode/mcp.json), or one of them with --client. Checks first that the gateway is on and the token is accepted.',
  options: {
    client: { type: 'string', value: 'NAME', description: `Print only this client's file, as plain JSON: ${MCP_CLIENTS.join(', ')}.` },
    ...CONNECTION_OPTIONS,
  },
  notes: [`the configuration names the token by its environment variable ${TOKEN_ENV}, never by value (VS Code prompts for it)`, ...REMOTE_NOTES],
};

export const MCP_USAGE = [
  'usage: portcullis mcp <subcommand> [options]',
  '',
  'subcommands:',
  '  config [--client claude-code|cursor|vscode]   the MCP client configuration for this service’s gateway',
  '',
  'each subcommand has --help',
].join('\n');

export async function runMcpCommand(args: string[], io: RemoteIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'config') return groupUsage('mcp', MCP_USAGE, subcommand, io);
  return runRemote(MCP_CONFIG_SPEC, rest, io, async ({ values, positionals, client, json, url }) => {
    noArguments(positionals);
    const only = clientOption(values.client);
    const gateway = new URL('/mcp', url).href;
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource', url), { signal: io.signal });
    if (metadata.status === 404) {
      io.stderr(`portcullis mcp config: the MCP gateway is off on ${url} (AppConfig:AI:McpGateway:Enabled is false)`);
      return EXIT.refused;
    }
    const capabilities = await unwrap(client.api.GET('/api/capabilities'));
    const granted = capabilities.tools.filter((tool) => tool.granted).length;
    const withToken = typeof values.token === 'string' || (io.env[TOKEN_ENV] !== undefined && io.env[TOKEN_ENV] !== '');
    const configs = mcpClientConfigs(gateway, withToken);
    if (only !== undefined) {
      io.stdout(JSON.stringify(configs[only], null, 2));
      return EXIT.ok;
    }
    if (json) {
      io.stdout(JSON.stringify({ gateway, grantedTools: granted, clients: configs }));
      return EXIT.ok;
    }
    io.stdout(`# Portcullis MCP gateway ${gateway}: ${granted} tool${granted === 1 ? '' : 's'} granted to you`);
    for (const name of MCP_CLIENTS) {
      io.stdout('');
      io.stdout(`# ${CLIENT_FILES[name]}`);
      io.stdout(JSON.stringify(configs[name], null, 2));
    }
    if (withToken) io.stdout(`\n# each client sends Authorization: Bearer <${TOKEN_ENV}>; export it where the client runs`);
    return EXIT.ok;
  });
}

const CLIENT_FILES: Readonly<Record<McpClientName, string>> = {
  'claude-code': 'Claude Code: .mcp.json in your project (or: claude mcp add-json portcullis \'<the object under mcpServers>\')',
  cursor: 'Cursor: ~/.cursor/mcp.json (or .cursor/mcp.json in your project)',
  vscode: 'VS Code: .vscode/mcp.json in your workspace',
};

/** Each client's configuration file for the gateway; with a token, each sends it from the environment. */
export function mcpClientConfigs(gateway: string, withToken: boolean): Readonly<Record<McpClientName, object>> {
  const header = (value: string) => (withToken ? { headers: { Authorization: value } } : {});
  return {
    'claude-code': { mcpServers: { [SERVER_NAME]: { type: 'http', url: gateway, ...header(`Bearer \${${TOKEN_ENV}}`) } } },
    cursor: { mcpServers: { [SERVER_NAME]: { url: gateway, ...header(`Bearer \${env:${TOKEN_ENV}}`) } } },
    vscode: {
      ...(withToken ? { inputs: [{ type: 'promptString', id: 'portcullis-token', description: 'Portcullis bearer token', password: true }] } : {}),
      servers: { [SERVER_NAME]: { type: 'http', url: gateway, ...header('Bearer ${input:portcullis-token}') } },
    },
  };
}

function clientOption(value: unknown): McpClientName | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (MCP_CLIENTS as readonly string[]).includes(value)) return value as McpClientName;
  throw new UsageError(`--client must be one of ${MCP_CLIENTS.join(', ')}`);
}
