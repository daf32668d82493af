// Name resolution for `http_fetch`, injectable so tests can play a hostile resolver.
import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Every address the name resolves to; each one is vetted before any is used. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true, verbatim: true });
