// Public surface of the dev identity provider: the loopback server for tests and the `dev-idp` and
// `token` commands.
export { startDevIdp, type DevIdp, type StartDevIdpOptions } from './start-dev-idp.js';
export { runDevIdp, devIdpConfigLines, DEV_IDP_USAGE } from './run-dev-idp.js';
export { runToken, TOKEN_USAGE } from './run-token.js';
export type { CliIo } from './cli-io.js';
export type { MintTokenOptions } from './mint-dev-token.js';
