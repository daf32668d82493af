import { afterAll, describe, expect, it } from 'vitest';
import { recordingIo, refusedUsage } from '../../../test/helpers/remote-io.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { mcpClientConfigs, runMcpCommand } from './run-mcp.js';

describe('portcullis mcp config', () => {
  it('names the token by its environment variable in every client’s file, never by value', () => {
    const configs = mcpClientConfigs('http://127.0.0.1:8080/mcp', true);
    expect(configs['claude-code']).toEqual({ mcpServers: { portcullis: { type: 'http', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer ${PORTCULLIS_TOKEN}' } } } });
    expect(configs.cursor).toEqual({ mcpServers: { portcullis: { url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer ${env:PORTCULLIS_TOKEN}' } } } });
    expect(configs.vscode).toEqual({
      inputs: [{ type: 'promptString', id: 'portcullis-token', description: 'Portcullis bearer token', password: true }],
      servers: { portcullis: { type: 'http', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer ${input:portcullis-token}' } } },
    });
  });

  it('sends no header in anonymous mode (no token)', () => {
    const configs = mcpClientConfigs('http://127.0.0.1:8080/mcp', false);
    expect(JSON.stringify(configs)).not.toContain('Authorization');
    expect(configs.vscode).toEqual({ servers: { portcullis: { type: 'http', url: 'http://127.0.0.1:8080/mcp' } } });
  });

  it('refuses an unknown client, an argument, and an unknown subcommand before asking the service', async () => {
    expect(await refusedUsage(runMcpCommand, ['config', '--client', 'emacs'])).toContain('--client must be one of claude-code, cursor, vscode');
    expect(await refusedUsage(runMcpCommand, ['config', 'extra'])).toContain("unexpected argument 'extra'");
    expect(await refusedUsage(runMcpCommand, ['configure'])).toContain("unknown subcommand 'configure'");
  });

  describe('against a live service', () => {
    const apps: TestApp[] = [];
    afterAll(async () => {
      for (const t of apps) await t.close();
    });
    const serve = async (enabled: boolean): Promise<string> => {
      const t = await buildTestApp({ settings: { AppConfig: { AI: { McpGateway: { Enabled: enabled }, BundleExecution: { Auth: { AllowAnonymous: true } } } } } });
      apps.push(t);
      return t.app.listen({ port: 0, host: '127.0.0.1' });
    };

    it('prints each client’s file for the gateway, with how many tools the caller is granted', async () => {
      const url = await serve(true);
      const io = recordingIo({ PORTCULLIS_URL: url });
      expect(await runMcpCommand(['config'], io)).toBe(0);
      expect(io.err).toEqual([]);
      expect(io.out[0]).toMatch(new RegExp(`^# Portcullis MCP gateway ${url}/mcp: \\d+ tools? granted to you$`));
      const text = io.out.join('\n');
      expect(text).toContain('# Claude Code: .mcp.json');
      expect(text).toContain('# VS Code: .vscode/mcp.json');
      expect(text).not.toContain('Authorization'); // anonymous Development: no token to send

      const only = recordingIo({ PORTCULLIS_URL: url, PORTCULLIS_TOKEN: 'not-needed-here' });
      expect(await runMcpCommand(['config', '--client', 'cursor'], only)).toBe(0);
      expect(JSON.parse(only.out.join('\n'))).toEqual({ mcpServers: { portcullis: { url: `${url}/mcp`, headers: { Authorization: 'Bearer ${env:PORTCULLIS_TOKEN}' } } } });
    });

    it('says the gateway is off and exits 3', async () => {
      const url = await serve(false);
      const io = recordingIo({ PORTCULLIS_URL: url });
      expect(await runMcpCommand(['config'], io)).toBe(3);
      expect(io.out).toEqual([]);
      expect(io.err).toEqual([`portcullis mcp config: the MCP gateway is off on ${url} (AppConfig:AI:McpGateway:Enabled is false)`]);
    });
  });
});
