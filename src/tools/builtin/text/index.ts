// Public surface of the built-in text tool.
export { createTextTool, type TextToolOptions } from './create-text-tool.js';
