// The AI SDK's provider utilities we use (its tool-call delta tracker and its guarded JSON parse),
// imported through this module alone. The package is one bundle that imports zod v3 and v4 at load:
// 15–17 MB of RSS in every process for two functions that use neither. The build replaces this
// module's output with a tree-shaken bundle of what it exports, `@ai-sdk/provider` left shared so its
// error classes stay one (scripts/bundle-vendor.mjs).
export { secureJsonParse, StreamingToolCallTracker } from '@ai-sdk/provider-utils';
