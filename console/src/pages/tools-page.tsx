// The tools I may see, with their risk metadata, my spend against my limits (the spend panel), and
// "why may I?": my resolved envelope (autonomy ceiling, auto-approve tier, spend limits) and, for every
// tool the host offers, whether it is granted to me and the rule that decided (GET /api/capabilities);
// and where an MCP client reaches the same tools (the gateway's protected-resource document names it).
import type { Capabilities, ToolEntry } from '../api/types';
import { Badge, Empty, Facts, ProblemNotice } from '../components/common';
import { SpendPanel } from '../components/spend-panel';
import { useApi } from '../lib/api-context';
import { href, useTitle } from '../lib/router';
import { limitText } from '../lib/spend-limits';
import { useAsync } from '../lib/use-async';

const SOURCE: Record<Capabilities['source'], string> = {
  subject: 'a grant for your subject id',
  roles: 'the grants of your roles (least privilege of all that match)',
  default: 'the Default envelope (no subject or role grant matched)',
  anonymous: 'the Default envelope (anonymous Development mode)',
};

export function ToolsPage() {
  useTitle('Tools');
  const api = useApi();
  const catalog = useAsync((signal) => api.get<{ tools: ToolEntry[] }>('/api/tools', signal), [api]);
  const capabilities = useAsync((signal) => api.get<Capabilities>('/api/capabilities', signal), [api]);
  // 404 while AppConfig:AI:McpGateway:Enabled is false: the gateway is off.
  const gateway = useAsync((signal) => api.get<{ resource: string }>('/.well-known/oauth-protected-resource', signal), [api]);
  const tools = catalog.value?.tools ?? [];
  const caps = capabilities.value;
  return (
    <section>
      <h1>Tools</h1>
      <ProblemNotice error={catalog.error} />
      <h2>Catalog</h2>
      {catalog.value !== undefined && tools.length === 0 ? <Empty>Your envelope grants no tools.</Empty> : null}
      {tools.length === 0 ? null : (
        <table>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Operations</th>
              <th scope="col">Risk</th>
              <th scope="col">Read-only</th>
              <th scope="col">Concurrency-safe</th>
              <th scope="col">Invocable here</th>
            </tr>
          </thead>
          <tbody>
            {tools.map((tool) => (
              <tr key={tool.name}>
                <th scope="row">
                  <a href={href('tools', tool.name)}>{tool.name}</a>
                  <span class="desc">{tool.description}</span>
                </th>
                <td>{tool.operations.join(', ')}</td>
                <td>
                  <Badge status={`risk-${tool.riskTier}`} label={tool.riskTier} />
                </td>
                <td>{tool.isReadOnly ? 'yes' : 'no'}</td>
                <td>{tool.isConcurrencySafe ? 'yes' : 'no'}</td>
                <td>{tool.isDirectlyInvocable ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>MCP gateway</h2>
      {gateway.value !== undefined ? (
        <p>
          These tools are also an MCP server, with the same rules, at <code>{gateway.value.resource}</code>. <code>npx portcullis mcp config</code> prints
          the configuration for Claude Code, Cursor and VS Code.
        </p>
      ) : gateway.error !== undefined ? (
        <p>The MCP gateway is off on this host (AppConfig:AI:McpGateway:Enabled).</p>
      ) : null}
      <SpendPanel />
      <h2 id="why">Why may I?</h2>
      <ProblemNotice error={capabilities.error} />
      {caps === undefined ? null : (
        <>
          <Facts
            items={[
              ['Decided by', SOURCE[caps.source]],
              ['Matched roles', caps.matchedRoles.join(', ') || 'none'],
              ['Autonomy ceiling', caps.autonomyCeiling],
              ['Auto-approved up to', caps.autoApproveUpTo],
              ['Spend limit per run', limitText(caps.budget.maxUsdPerRun)],
              ['Spend limit per day (UTC)', limitText(caps.budget.maxUsdPerDay)],
              ['Spend limit per month (UTC)', limitText(caps.budget.maxUsdPerMonth)],
              ['Allowed tools', caps.allowedTools.join(', ') || 'none'],
              ['Allowed MCP servers', caps.allowedMcpServers.join(', ') || 'none'],
              ['Policies', caps.policy === null ? 'none configured' : `${caps.policy.mode === 'Shadow' ? 'Shadow (recorded, not enforced)' : 'Enforced'}, version ${caps.policy.version}`],
            ]}
          />
          {caps.autonomyCeiling === 'Autonomous' ? null : (
            <p class="notice">Only the Autonomous ceiling lets tools run; with {caps.autonomyCeiling}, every tool call is refused.</p>
          )}
          <table>
            <caption>Every tool the host offers</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Granted to me</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {caps.tools.map((tool) => (
                <tr key={tool.name}>
                  <th scope="row">{tool.name}</th>
                  <td>
                    <Badge status={tool.granted ? 'Granted' : 'Denied'} />
                  </td>
                  <td>{tool.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
