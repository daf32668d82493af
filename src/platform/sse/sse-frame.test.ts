import { describe, expect, it } from 'vitest';
import { sseCommentFrame, sseDataFrame } from './sse-frame.js';

describe('sseDataFrame', () => {
  it('frames JSON as one data line followed by a blank line', () => {
    expect(sseDataFrame({ type: 'RUN_STARTED', runId: 'r1' })).toBe('data: {"type":"RUN_STARTED","runId":"r1"}\n\n');
  });

  it('puts an id line before the data line when given', () => {
    expect(sseDataFrame({ n: 1 }, 7)).toBe('id: 7\ndata: {"n":1}\n\n');
    expect(sseDataFrame({ n: 1 }, 'a-1')).toBe('id: a-1\ndata: {"n":1}\n\n');
  });

  it('keeps line breaks inside strings escaped so the payload stays on one line', () => {
    const delta = 'one\ntwo\r\nthree\rfour\u2028five';
    const frame = sseDataFrame({ delta });
    const lines = frame.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^data: /);
    expect(frame).not.toContain('\r');
    expect(JSON.parse(lines[0]!.slice('data: '.length))).toEqual({ delta });
  });

  it('refuses data that is not JSON and ids that would break the framing', () => {
    expect(() => sseDataFrame(undefined)).toThrow(TypeError);
    expect(() => sseDataFrame({}, 'a\nb')).toThrow(RangeError);
    expect(() => sseDataFrame({}, Number.NaN)).toThrow(RangeError);
  });
});

describe('sseCommentFrame', () => {
  it('writes a colon line followed by a blank line', () => {
    expect(sseCommentFrame('heartbeat')).toBe(': heartbeat\n\n');
  });

  it('prefixes every line of a multi-line comment', () => {
    expect(sseCommentFrame('a\nb\r\nc')).toBe(': a\n: b\n: c\n\n');
  });
});
