// Public surface of the built-in clock tool.
export { createClockTool, type ClockToolOptions } from './create-clock-tool.js';
