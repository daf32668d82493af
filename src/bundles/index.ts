// Public surface of the bundle plane: the composition entry point and the types other features
// (evals) may need. Archive staging and manifests have their own index files.
export { registerBundles, type BundlesFeature, type BundleAgents } from './register-bundles.js';
export type { BundleRunService } from './runs/bundle-run-service.js';
export type { HandleStore } from './handles/handle-store.js';
export type { BundleHandle } from './handles/bundle-handle.js';
export type { BundleRunRecord } from './runs/run-record.js';
export { isTerminalFrame } from './runs/bundle-frame.js';
export { bundleRunKey } from './runs/bundle-run-store.js';
export { BundleTurns, type BundleTurnInput } from './bundle-turns.js';
export { bundlesDisabled, HANDLE_NOT_FOUND_DETAIL, CONVERSATION_NOT_FOUND_DETAIL, RUN_NOT_FOUND_DETAIL } from './problems.js';
export { FinishedBundleRuns, type FinishedRun, type FinishedRunLookup } from './runs/finished-runs.js';
export type { BundleFrame, RunFrame } from './runs/bundle-frame.js';
export { RUN_CANCELLED, RUN_HANDLE_EXPIRED, RUN_RESERVATION_EXPIRED, RUN_UNHANDLED_EXCEPTION, RUN_HOST_STOPPED, NO_CHAT_MODEL_ERROR } from './runs/run-errors.js';
export {
  RunBundleRequestSchema,
  BundleRunResponseSchema,
  StartRunResponseSchema,
  RegisterBundleResponseSchema,
  type RunBundleRequest,
  type BundleRunResponse,
  type StartRunResponse,
  type RegisterBundleResponse,
} from './schemas.js';
