// The environment name, read straight from PORTCULLIS_ENVIRONMENT rather than from an AppConfig
// key because it decides which appsettings.{Environment}.json layer exists at all. PORT and HOST
// belong to the CLI's listen options, not to configuration.
import type { ConfigKeyDoc } from './config-key-doc.js';

export interface HostSettings {
  readonly environment: string;
  /** Environment name Development, compared case-insensitively as ASP.NET does. */
  readonly development: boolean;
}

export const DEFAULT_ENVIRONMENT = 'Production';

export function readHostSettings(env: Readonly<Record<string, string | undefined>>): HostSettings {
  const environment = env.PORTCULLIS_ENVIRONMENT?.trim() || DEFAULT_ENVIRONMENT;
  return { environment, development: environment.toLowerCase() === 'development' };
}

export const hostSettingDocs: readonly ConfigKeyDoc[] = [
  {
    key: 'PORTCULLIS_ENVIRONMENT',
    type: 'string',
    default: DEFAULT_ENVIRONMENT,
    meaning:
      'Environment variable only. Environment name; picks appsettings.{Environment}.json. Development permits AllowAnonymous and makes Scripted the default chat model.',
  },
];
