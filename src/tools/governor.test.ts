import { describe, expect, it } from 'vitest';
import { createLogger } from '../platform/log/index.js';
import { resolveEnvelope } from '../platform/envelope/index.js';
import { ToolGovernor } from './governor.js';
import { toolSuccess, type Tool } from './tool.js';

const SECRET = 'sk-live-0123456789abcdefghijklmnopqrstuv';
const envelope = resolveEnvelope(
  { default: { allowedTools: ['echo'], allowedMcpServers: [], autonomyCeiling: 'Autonomous' }, bySubject: {}, byRole: {} },
  { anonymous: true, subjectId: null, roles: [] },
);
const echo: Tool = {
  descriptor: {
    name: 'echo',
    description: 'echo',
    operations: [{ name: 'say', description: 'say', parameters: { type: 'object' } }],
    riskTier: 'Trivial',
    isReadOnly: true,
    isConcurrencySafe: true,
    isDirectlyInvocable: true,
    reachesNetwork: false,
  },
  invoke: async () => toolSuccess('ok'),
};

function governorWithLog() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  const governor = new ToolGovernor({ log: { info: (o, m) => logger.info(o, m), warn: (o, m) => logger.warn(o, m) } });
  return { governor, lines };
}

const call = (operation: string) => ({ ownerId: 'sub:alice', envelope, tool: echo, operation, parameters: { text: SECRET }, signal: new AbortController().signal, surface: 'direct' as const });

describe('the governor decision log', () => {
  it('logs each decision with owner, tool, operation, surface, verdict and rule, never the parameters', async () => {
    const { governor, lines } = governorWithLog();
    await governor.execute(call('say'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ owner: 'sub:alice', tool: 'echo', operation: 'say', surface: 'direct', verdict: 'allowed', msg: 'tool call governed' });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('redacts an operation name the tool does not declare (model or caller text)', async () => {
    const { governor, lines } = governorWithLog();
    governor.authorize(call(`token=${SECRET}`));
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(lines[0]).toMatchObject({ operation: 'token=[REDACTED]' });
  });
});
