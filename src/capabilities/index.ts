export { registerCapabilitiesRoutes } from './routes.js';
export { explainCapabilities } from './service.js';
export { CapabilitiesResponseSchema, type CapabilitiesResponse } from './schemas.js';
