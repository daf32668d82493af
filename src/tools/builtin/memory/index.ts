// Public surface of the `memory` built-in tool.
export { createMemoryTool, type MemoryToolOptions } from './create-memory-tool.js';
export { memoryLimits } from './memory-limits.js';
