import { describe, expect, it } from 'vitest';
import { sequentialIds } from '../../platform/clock/index.js';
import type { AgentEvent } from './agent-event.js';
import { TextMessageRelay } from './text-message-relay.js';

function relay(): { relay: TextMessageRelay; events: AgentEvent[] } {
  const events: AgentEvent[] = [];
  return { relay: new TextMessageRelay((e) => events.push(e), sequentialIds('m')), events };
}

describe('TextMessageRelay', () => {
  it('starts lazily on the first non-empty chunk and ends once', () => {
    const { relay: r, events } = relay();
    r.push('');
    expect(events).toEqual([]);
    expect(r.messageId).toBeUndefined();
    r.push('Hello world, this is plain text. ');
    r.end();
    r.end();
    expect(events[0]).toEqual({ type: 'TEXT_MESSAGE_START', messageId: 'm-1', role: 'assistant' });
    expect(events.at(-1)).toEqual({ type: 'TEXT_MESSAGE_END', messageId: 'm-1' });
    expect(events.filter((e) => e.type === 'TEXT_MESSAGE_END')).toHaveLength(1);
    expect(events.every((e) => e.type !== 'TEXT_MESSAGE_CONTENT' || e.delta !== '')).toBe(true);
    expect(r.text).toBe('Hello world, this is plain text. ');
    expect(r.messageId).toBe('m-1');
  });

  it('emits nothing at all for a step without text', () => {
    const { relay: r, events } = relay();
    r.push('');
    r.end();
    expect(events).toEqual([]);
    expect(r.text).toBe('');
  });

  it('holds back a possible secret until it is decided, then shows only the marker', () => {
    const { relay: r, events } = relay();
    const secret = 'ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
    r.push(`key: ${secret.slice(0, 10)}`);
    r.push(secret.slice(10, 25));
    r.push(`${secret.slice(25)} end`);
    r.end();
    const deltas = events.flatMap((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? [e.delta] : []));
    expect(deltas.join('')).toBe('key: [REDACTED] end');
    expect(deltas.some((d) => d.includes('ghp_'))).toBe(false);
    expect(r.text).toBe('key: [REDACTED] end');
  });

  it('refuses text after the end', () => {
    const { relay: r } = relay();
    r.end();
    expect(() => r.push('late')).toThrow();
  });
});
