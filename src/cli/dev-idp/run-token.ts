// `portcullis token --sub S [--oid O] [--name N] [--role R]... [--ttl 1h] [--state DIR]`: mints a token from the
// dev IdP's state file without talking to the server, and prints it on stdout.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io.js';
import { DEFAULT_STATE_DIR, readDevIdpState, stateFilePath } from './dev-idp-state.js';
import { instanceFor, issuerFor } from './dev-idp-urls.js';
import { mintDevToken } from './mint-dev-token.js';
import { parseTtl } from './parse-ttl.js';
import { runnable } from '../runnable.js';

export const TOKEN_USAGE = [
  'usage: portcullis token --sub S [--oid O] [--name N] [--role R]... [--ttl 1h] [--state DIR]',
  '',
  'Mints a token from the dev-idp\'s state file (no server needed) and prints it on stdout.',
  '',
  'options:',
  '  --sub S       the sub claim (required)',
  '  --oid O       an oid claim, which then becomes the owner id (default: none)',
  '  --name N      a name claim: how approvals name the person (requestedBy, decidedBy) (default: none)',
  '  --role R      a role claim; repeatable (default: none)',
  '  --ttl T       lifetime such as 90s, 15m, 1h or 2d, at most 365d (default: 1h)',
  '  --state DIR   the dev-idp state folder (default: .portcullis)',
  '  -h, --help    show this help',
].join('\n');

export async function runToken(args: string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        sub: { type: 'string' },
        oid: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string', multiple: true },
        ttl: { type: 'string', default: '1h' },
        state: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  if (values.help === true) {
    io.stdout(TOKEN_USAGE);
    return 0;
  }
  if (values.sub === undefined || values.sub.trim() === '') return usageError(io, '--sub is required');
  if (values.oid !== undefined && values.oid.trim() === '') return usageError(io, '--oid must not be empty');
  if (values.name !== undefined && values.name.trim() === '') return usageError(io, '--name must not be empty');
  const ttlSeconds = parseTtl(values.ttl);
  if (ttlSeconds === null) return usageError(io, `--ttl must be a duration like 90s, 15m, 1h or 2d (at most 365d), got '${values.ttl}'`);

  const stateDir = resolve(io.cwd, values.state ?? DEFAULT_STATE_DIR);
  let state;
  try {
    state = await readDevIdpState(stateDir);
  } catch (error) {
    io.stderr(`portcullis token: ${(error as Error).message}`);
    return 1;
  }
  if (state === null || state.port === null) {
    io.stderr(`portcullis token: no dev-idp state at ${stateFilePath(stateDir)}; run '${runnable('dev-idp')}' first`);
    return 1;
  }
  const issuer = issuerFor(instanceFor(state.host, state.port), state.tenantId);
  const roles = values.role ?? [];
  const claims = { sub: values.sub, oid: values.oid, name: values.name, roles: roles.length > 0 ? roles : undefined };
  io.stdout(await mintDevToken({ issuer, clientId: state.clientId, signingKey: state.signingKey }, claims, { ttlSeconds }, Date.now()));
  return 0;
}

function usageError(io: CliIo, message: string): number {
  io.stderr(`portcullis token: ${message}\n${TOKEN_USAGE}`);
  return 2;
}
