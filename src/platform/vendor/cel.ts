// The CEL evaluator (workflow conditions), imported through this module alone: the build bundles it
// (scripts/bundle-vendor.mjs; decision 3605), one module instead of 14. Types still come from the package.
export { Environment } from '@marcbachmann/cel-js';
