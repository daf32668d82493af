// `portcullis/client`: a typed client for a Portcullis service. Types come from the OpenAPI document
// the service itself produces (generated at build time); the runtime is openapi-fetch. Import only
// from here: `import { createClient, PortcullisProblem } from 'portcullis/client'`.
export { createClient, type ClientOptions, type PortcullisApi, type PortcullisClient } from './create-client.js';
export { unwrap } from './unwrap.js';
export { PortcullisProblem, isPortcullisProblem, type ProblemDocument } from './portcullis-problem.js';
export type { AguiEvent, RunAgentInput } from './agui-events.js';
export type { WorkflowProgressEvent, WorkflowProgressFrame, WorkflowProgressOptions } from './workflow-progress.js';
export type { EvalProgressOptions, EvalRun } from './eval-progress.js';
export type { RegisteredBundle } from './register-bundle.js';
export type { paths, components, operations } from './generated/openapi.js';
export type { Schema } from './schema.js';
