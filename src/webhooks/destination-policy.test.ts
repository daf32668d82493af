import { describe, expect, it } from 'vitest';
import type { HostLookup } from '../tools/builtin/http-fetch/index.js';
import { DestinationPolicy } from './destination-policy.js';

/** A resolver answering from a table; an unknown name does not resolve. */
const resolver =
  (table: Readonly<Record<string, readonly string[]>>): HostLookup =>
  async (name) => {
    const addresses = table[name];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const HOSTS = ['hooks.example.com', 'metadata.example.com', 'mixed.example.com', 'later.example.com', 'slow.example.com', 'listed.example.com', '10.0.0.7'];
const TABLE = {
  'hooks.example.com': ['93.184.216.34'],
  'metadata.example.com': ['169.254.169.254'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.1'],
  'listed.example.com': ['10.0.0.7'],
};

describe('DestinationPolicy.admit', () => {
  const policy = new DestinationPolicy(HOSTS, resolver(TABLE));

  it('admits a public destination and keeps it normalised', async () => {
    expect(await policy.admit('HTTPS://Hooks.Example.COM:443/in/./x?y=1')).toEqual({ ok: true, url: 'https://hooks.example.com/in/x?y=1' });
  });

  it('refuses a name that resolves to a link-local address, or to any restricted address among public ones', async () => {
    for (const url of ['http://metadata.example.com/latest', 'http://mixed.example.com/in']) {
      const admission = await policy.admit(url);
      expect(admission.ok, url).toBe(false);
      expect(admission.ok ? '' : admission.reason).toMatch(/resolves to a private, loopback or link-local address/);
    }
  });

  it('admits a name resolving to a private address that is listed by IP', async () => {
    expect(await policy.admit('http://listed.example.com/in')).toEqual({ ok: true, url: 'http://listed.example.com/in' });
  });

  it('admits a name that does not resolve now, or not in time: each attempt judges it again', async () => {
    expect((await policy.admit('http://later.example.com/in')).ok).toBe(true);
    const hanging = new DestinationPolicy(HOSTS, () => new Promise(() => undefined), 20);
    expect((await hanging.admit('http://slow.example.com/in')).ok).toBe(true);
  });

  it('refuses what URL parsers disagree on before resolving anything', async () => {
    let asked = 0;
    const counting = new DestinationPolicy(HOSTS, async (name) => {
      asked += 1;
      return resolver(TABLE)(name);
    });
    for (const url of ['http://hooks.example.com\\@169.254.169.254/', 'http://hooks.example.com/\r\n', 'http://u:p@hooks.example.com/', 'http://hooks.example.com/\u2028', 'http://hooks.example.com/\u009b']) {
      expect((await counting.admit(url)).ok, JSON.stringify(url)).toBe(false);
    }
    expect(asked).toBe(0);
  });

  it('refuses a URL whose normalised form outgrows the kept bound', async () => {
    const admission = await policy.admit(`https://hooks.example.com/${'é'.repeat(400)}`);
    expect(admission).toEqual({ ok: false, reason: 'The webhook URL is longer than 2048 characters once normalised.' });
  });
});
