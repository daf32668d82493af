// The claim names identity and roles are read from: short JWT names and the long WS-Federation URIs
// that Entra ID and ASP.NET hosts emit. Names only; the reading rules are in principal-from-claims.

export const claimNames = Object.freeze({
  oid: 'oid',
  objectIdentifier: 'http://schemas.microsoft.com/identity/claims/objectidentifier',
  nameIdentifier: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier',
  sub: 'sub',
  name: 'name',
  role: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role',
  roles: 'roles',
  shortRole: 'role',
});
