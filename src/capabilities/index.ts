export { registerCapabilitiesRoutes } from './routes.js';
export { registerSpendRoute } from './spend-route.js';
export { explainCapabilities } from './service.js';
export { CapabilitiesResponseSchema, SpendResponseSchema, type CapabilitiesResponse, type SpendResponse } from './schemas.js';
