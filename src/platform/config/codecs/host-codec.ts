// One `Tools:HttpFetch:AllowedHosts` entry: a bare host name or an IP literal. Checked here, with
// every other key, so a typo is reported at start-up beside the other configuration problems and
// under its full key — the same rules the http_fetch allowlist applies when it is built.
import { isIP } from 'node:net';
import { accept, refuse, type Codec } from './codec.js';

const NOT_A_HOST = 'must be a bare host name or IP address (no scheme, port, path or wildcard)';

function isIpLiteral(text: string): boolean {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return isIP(bare.split('%', 1)[0] ?? '') !== 0;
}

export const hostCodec: Codec<string> = {
  display: 'string',
  decode(raw) {
    if (typeof raw !== 'string') return refuse('must be a string');
    const text = raw.trim();
    if (text === '') return refuse('must not be empty');
    if (isIpLiteral(text)) return accept(text);
    if (text.includes(':')) return refuse(NOT_A_HOST);
    let url: URL;
    try {
      url = new URL(`http://${text}/`);
    } catch {
      return refuse(NOT_A_HOST);
    }
    if (url.host !== url.hostname || url.username !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
      return refuse(NOT_A_HOST);
    }
    if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(url.hostname) && !isIpLiteral(url.hostname)) return refuse(NOT_A_HOST);
    return accept(text);
  },
};
