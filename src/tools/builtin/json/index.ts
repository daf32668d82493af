// Public surface of the built-in json tool.
export { createJsonTool, type JsonToolOptions } from './create-json-tool.js';
