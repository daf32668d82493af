import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../models/index.js';
import { historyWindow } from './history-window.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistantCall = (id: string): ChatMessage => ({ role: 'assistant', content: '', toolCalls: [{ id, name: 'clock', arguments: '{}' }] });
const tool = (id: string): ChatMessage => ({ role: 'tool', toolCallId: id, toolName: 'clock', content: 'noon' });

describe('historyWindow', () => {
  it('keeps the last maxMessages messages', () => {
    expect(historyWindow([user('a'), user('b'), user('c')], 2)).toEqual([user('b'), user('c')]);
    expect(historyWindow([user('a')], 50)).toEqual([user('a')]);
  });

  it('never starts with a tool result whose assistant call fell outside the window', () => {
    const messages = [user('q'), assistantCall('1'), tool('1'), tool('1b'), user('next')];
    expect(historyWindow(messages, 3)).toEqual([user('next')]);
    expect(historyWindow(messages, 4)).toEqual(messages.slice(1));
    expect(historyWindow(messages, 5)).toEqual(messages);
  });
});
