export { registerCapabilitiesRoutes } from './routes.js';
export { registerSpendRoute } from './spend-route.js';
export { explainCapabilities } from './service.js';
export { hostFamilies } from './host-families.js';
export { CapabilitiesResponseSchema, SpendResponseSchema, type CapabilitiesResponse, type HostFamilies, type SpendResponse } from './schemas.js';
