// The governor's decision line writes its own JSON (on every governed call): the bytes pino's own
// field loop writes for the same line.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../platform/log/index.js';
import { GovernorDecisionLine } from './governor-decision-line.js';

function bothWays(line: GovernorDecisionLine): { ours: string; pinos: string } {
  const written: string[] = [];
  createLogger({ level: 'info', destination: { write: (text: string) => void written.push(text) } }).info(line, 'tool call governed');
  pino({ level: 'info' }, { write: (text: string) => void written.push(text) }).info(line, 'tool call governed');
  const [ours, pinos] = written.map((text) => text.replace(/,"time":\d+/, ''));
  return { ours: ours!, pinos: pinos! };
}

describe('GovernorDecisionLine', () => {
  it('is written as pino writes it: an allowed call, every optional field null', () => {
    const line = new GovernorDecisionLine('oidc:alice', 'clock', 'now', 'workflow', 'allowed', 'granted by AppConfig:AI:BundleExecution:Envelopes:Default', null, 'default', null);
    const { ours, pinos } = bothWays(line);
    expect(ours).toBe(pinos);
    expect(JSON.parse(ours)).toMatchObject({ event: 'tool.call.decided', owner: 'oidc:alice', denial: null, refusal: null, policy: null, reqId: null, msg: 'tool call governed' });
  });

  it('is written as pino writes it: a denial with a refusal, a request id and a policy decision', () => {
    const policy = { version: 'v"1', decision: 'deny', determining: ['refund-limit'], errors: [], mode: 'enforce' };
    const line = new GovernorDecisionLine('oidc:o\\"dd', 'mcp__shop__refund', 'refund', 'direct', 'denied', 'denied: policy refund-limit', 'policy', 'subject', 'req-7', 'invalid-parameters', policy);
    const { ours, pinos } = bothWays(line);
    expect(ours).toBe(pinos);
    expect(JSON.parse(ours)).toMatchObject({ owner: 'oidc:o\\"dd', policy, refusal: 'invalid-parameters', reqId: 'req-7' });
  });

  it('writes each of a run of lines as pino does, whichever fields repeat from the line before', () => {
    const allowed = (owner: string, reqId: string | null) => new GovernorDecisionLine(owner, 'clock', 'now', 'workflow', 'allowed', 'granted by the default envelope', null, 'default', reqId);
    const lines = [
      allowed('oidc:a', null),
      allowed('oidc:b', null), // only the owner differs
      allowed('oidc:b', 'req-2'), // and now the request id
      new GovernorDecisionLine('oidc:b', 'clock', 'now', 'workflow', 'denied', 'denied: autonomy', 'autonomy', 'default', 'req-2'),
      allowed('oidc:a', null),
    ];
    for (const line of lines) {
      const { ours, pinos } = bothWays(line);
      expect(ours).toBe(pinos);
    }
  });

  it('writes a repeated decision as pino does through loggers with other bindings and messages, in any order', () => {
    const line = new GovernorDecisionLine('oidc:a', 'clock', 'now', 'workflow', 'allowed', 'granted by the default envelope', null, 'default', null);
    const ours: string[] = [];
    const pinos: string[] = [];
    const mine = createLogger({ level: 'info', destination: { write: (text: string) => void ours.push(text) } });
    const reference = pino({ level: 'info' }, { write: (text: string) => void pinos.push(text) });
    const sides = [
      { mine, reference },
      { mine: mine.child({ jobId: 'j-1' }), reference: reference.child({ jobId: 'j-1' }) },
      { mine: mine.child({ jobId: 'j-2' }), reference: reference.child({ jobId: 'j-2' }) },
    ];
    for (const [index, message] of ['tool call governed', 'tool call governed', 'another message', 'tool call governed'].entries()) {
      for (const side of [sides[index % 3]!, sides[(index + 1) % 3]!]) {
        side.mine.info(line, message);
        side.reference.info(line, message);
      }
    }
    const untimed = (text: string) => text.replace(/,"time":\d+/, '');
    expect(ours.map(untimed)).toEqual(pinos.map(untimed));
    expect(new Set(ours.map((text) => (JSON.parse(text) as { jobId?: string }).jobId ?? 'none'))).toEqual(new Set(['none', 'j-1', 'j-2']));
  });
});
