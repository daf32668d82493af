// Where the browser tests find a Chromium: PORTCULLIS_CHROMIUM, else Debian's (`apt-get install
// chromium`). No browser is ever downloaded.
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export const ENABLE_BROWSER_TESTS = 'install Chromium (apt-get install chromium) or set PORTCULLIS_CHROMIUM=/path/to/chromium';

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env.PORTCULLIS_CHROMIUM;
  if (configured !== undefined && configured !== '') return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}
