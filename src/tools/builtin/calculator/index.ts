// Public surface of the built-in calculator tool.
export { createCalculatorTool } from './create-calculator-tool.js';
