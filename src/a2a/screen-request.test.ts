import { describe, expect, it } from 'vitest';
import { screenRequest } from './screen-request.js';

const message = (parts: unknown[], extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 'r1', method: 'SendMessage', params: { message: { role: 'ROLE_USER', parts, ...extra } } });
const codeOf = (body: unknown) => {
  const screened = screenRequest(body);
  return screened.ok ? 'ok' : screened.response.error.code;
};

describe('screenRequest', () => {
  it('passes one well-formed request, and methods it does not know on to the SDK', () => {
    expect(codeOf(message([{ text: 'hi' }, { data: { a: 1 } }]))).toBe('ok');
    expect(codeOf({ jsonrpc: '2.0', id: 1, method: 'NoSuchMethod' })).toBe('ok');
  });

  it('refuses batches and envelopes that are not JSON-RPC 2.0 as invalid requests, with the id when it is one', () => {
    expect(codeOf([message([{ text: 'hi' }])])).toBe(-32600);
    expect(codeOf('SendMessage')).toBe(-32600);
    expect(codeOf({ id: 1, method: 'GetTask' })).toBe(-32600);
    expect(codeOf({ jsonrpc: '2.0', id: 1.5, method: 'GetTask' })).toBe(-32600);
    expect(codeOf({ jsonrpc: '2.0', id: 'x'.repeat(201), method: 'GetTask' })).toBe(-32600);
    const refused = screenRequest({ jsonrpc: '1.0', id: 'keep-me', method: 'GetTask' });
    expect(refused.ok ? undefined : refused.response.id).toBe('keep-me');
  });

  it('refuses what the SDK’s readers would coerce or throw on as invalid params', () => {
    for (const parts of [[], [null], [{ text: 1 }], [{}], [{ text: 'a', data: 1 }], Array.from({ length: 101 }, () => ({ text: 'x' }))]) {
      expect(codeOf(message(parts))).toBe(-32602);
    }
    expect(codeOf(message([{ text: 'hi' }], { role: 'ROLE_AGENT' }))).toBe(-32602);
    expect(codeOf(message([{ text: 'hi' }], { contextId: 42 }))).toBe(-32602);
    expect(codeOf(message([{ data: { blob: 'x'.repeat(70_000) } }]))).toBe(-32602);
    expect(codeOf({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: ['x'] } })).toBe(-32602);
  });

  it('refuses file parts as content it does not accept', () => {
    expect(codeOf(message([{ raw: 'JVBERi0=' }]))).toBe(-32005);
    expect(codeOf(message([{ url: 'https://example.com/a.pdf' }]))).toBe(-32005);
  });

  it('reads configuration.blocking false as returnImmediately true, and leaves an explicit returnImmediately alone', () => {
    const screened = screenRequest({ ...message([{ text: 'hi' }]), params: { message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] }, configuration: { blocking: false } } });
    expect(screened.ok ? (screened.request.params as { configuration: unknown }).configuration : undefined).toEqual({ blocking: false, returnImmediately: true });
    const explicit = screenRequest({ ...message([{ text: 'hi' }]), params: { message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] }, configuration: { blocking: false, returnImmediately: false } } });
    expect(explicit.ok ? (explicit.request.params as { configuration: unknown }).configuration : undefined).toEqual({ blocking: false, returnImmediately: false });
    expect(codeOf({ ...message([{ text: 'hi' }]), params: { message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] }, configuration: { blocking: 'no' } } })).toBe(-32602);
  });
});
