import { describe, expect, it } from 'vitest';
import type { EnvelopesConfig } from '../config/types.js';
import { decideExecution, decideTool, explainTools, narrowEnvelope, resolveEnvelope } from './index.js';
import { NO_BUDGET } from './budget.js';

// The all-defaults configuration SPEC.md ships: Default grants no tools, no servers, ceiling Restricted.
const shipped: EnvelopesConfig = {
  default: { allowedTools: [], allowedMcpServers: [], autonomyCeiling: 'Restricted', autoApproveUpTo: 'None', budget: NO_BUDGET },
  bySubject: {},
  byRole: {},
};
const hostTools = ['clock', 'calculator', 'json', 'text', 'knowledge', 'memory', 'http_fetch', 'delegate_task', 'mcp__everything__get-sum'];

describe('the shipped default envelope', () => {
  it.each([
    { caller: 'a subject', who: { subjectId: 'user-1', roles: [], anonymous: false }, source: 'default' },
    { caller: 'a role holder', who: { subjectId: null, roles: ['Harness.Tools.Invoke'], anonymous: false }, source: 'default' },
    { caller: 'an anonymous caller', who: { subjectId: null, roles: [], anonymous: true }, source: 'anonymous' },
  ])('grants $caller nothing visible and nothing executable', ({ who, source }) => {
    const resolved = resolveEnvelope(shipped, who);
    expect(resolved).toMatchObject({ source, allowedTools: [], allowedMcpServers: [], autonomyCeiling: 'Restricted' });
    for (const tool of hostTools) {
      expect(decideTool(resolved, tool).allowed).toBe(false);
      expect(decideExecution(resolved, tool).allowed).toBe(false);
      expect(decideExecution(narrowEnvelope(resolved, hostTools), tool).allowed).toBe(false);
    }
    expect(explainTools(resolved, hostTools.map((name) => ({ name, riskTier: 'Trivial' }))).every((entry) => !entry.granted)).toBe(true);
  });
});
