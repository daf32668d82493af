// jose's runtime, imported through this module alone: the build bundles it (scripts/bundle-vendor.mjs;
// decision 3605), one module instead of its 46. Types still come from 'jose' (`import type`).
export { calculateJwkThumbprint, createLocalJWKSet, errors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose';
