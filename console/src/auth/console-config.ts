// The service's public sign-in document for the console (/console/config.json).

export type ConsoleAuth =
  | { readonly mode: 'anonymous' }
  | { readonly mode: 'oidc'; readonly authority: string; readonly clientId: string; readonly scope: string };

export interface ConsoleConfig {
  readonly auth: ConsoleAuth;
}

export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  const response = await fetch('/console/config.json', { cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  return (await response.json()) as ConsoleConfig;
}
