// The web console's server side: static files, public sign-in config, security headers.
export { registerConsole, CONSOLE_PATH, type ConsoleOptions } from './register-console.js';
export { consoleConfig, type ConsoleConfig, type ConsoleAuth } from './console-config.js';
export { contentSecurityPolicy } from './content-security-policy.js';
