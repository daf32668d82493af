// A named schema of the service's OpenAPI document as a type: `Schema<'BundleRunResponse'>`.
import type { components } from './generated/openapi.js';

export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
