import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../models/index.js';
import { historyWindow } from './history-window.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistantCall = (id: string): ChatMessage => ({ role: 'assistant', content: '', toolCalls: [{ id, name: 'clock', arguments: '{}' }] });
const tool = (id: string): ChatMessage => ({ role: 'tool', toolCallId: id, toolName: 'clock', content: 'noon' });

describe('historyWindow', () => {
  it('keeps the last maxMessages messages', () => {
    expect(historyWindow([user('a'), user('b'), user('c')], 2, 1000)).toEqual([user('b'), user('c')]);
    expect(historyWindow([user('a')], 50, 1000)).toEqual([user('a')]);
  });

  it('never starts with a tool result whose assistant call fell outside the window', () => {
    const messages = [user('q'), assistantCall('1'), tool('1'), tool('1b'), user('next')];
    expect(historyWindow(messages, 3, 1000)).toEqual([user('next')]);
    expect(historyWindow(messages, 4, 1000)).toEqual(messages.slice(1));
    expect(historyWindow(messages, 5, 1000)).toEqual(messages);
  });

  it('keeps only the newest messages that fit maxBytes, whole', () => {
    const messages = [user('a'.repeat(10)), user('é'.repeat(5)), user('c'.repeat(4))];
    expect(historyWindow(messages, 50, 14)).toEqual(messages.slice(1));
    expect(historyWindow(messages, 50, 13)).toEqual(messages.slice(2));
    expect(historyWindow(messages, 50, 3)).toEqual([]);
  });

  it('counts tool-call arguments and drops a tool result orphaned by the byte window', () => {
    const messages = [user('q'), assistantCall('1'), tool('1'), user('next')];
    // assistantCall is 'clock' + '{}' = 7 bytes, the tool result 'noon' 4, 'next' 4.
    expect(historyWindow(messages, 50, 15)).toEqual(messages.slice(1));
    expect(historyWindow(messages, 50, 14)).toEqual([user('next')]);
  });
});
