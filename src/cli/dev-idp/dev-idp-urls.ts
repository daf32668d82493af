// Where the dev IdP's documents live, laid out like Entra ID: authority `{instance}{tenant}/v2.0`,
// discovery under it, keys at `/{tenant}/discovery/v2.0/keys`.

export function instanceFor(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
}

export function issuerFor(instance: string, tenantId: string): string {
  return `${instance}${tenantId}/v2.0`;
}

export function discoveryPath(tenantId: string): string {
  return `/${tenantId}/v2.0/.well-known/openid-configuration`;
}

export function jwksPath(tenantId: string): string {
  return `/${tenantId}/discovery/v2.0/keys`;
}

export function authorizePath(tenantId: string): string {
  return `/${tenantId}/oauth2/v2.0/authorize`;
}

export function tokenPath(tenantId: string): string {
  return `/${tenantId}/oauth2/v2.0/token`;
}
