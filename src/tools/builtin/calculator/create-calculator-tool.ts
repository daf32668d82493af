// The built-in `calculator` tool: `evaluate` runs the bounded recursive-descent evaluator (no eval, no
// mathjs expression scope). It keeps no state and needs no close().
import { toolFailure, toolSuccess, type Tool, type ToolResult } from '../../tool.js';
import { calculatorDescriptor } from './calculator-descriptor.js';
import { CalculatorError } from './calculator-error.js';
import { evaluateExpression } from './evaluate-expression.js';

function evaluate(parameters: Readonly<Record<string, unknown>>): ToolResult {
  const { expression } = parameters;
  if (typeof expression !== 'string') return toolFailure('expression must be a string');
  try {
    return toolSuccess({ expression, result: evaluateExpression(expression) });
  } catch (error) {
    if (error instanceof CalculatorError) return toolFailure(error.message);
    throw error;
  }
}

export function createCalculatorTool(): Tool {
  const run = (operation: string, parameters: Readonly<Record<string, unknown>>): ToolResult =>
    operation === 'evaluate'
      ? evaluate(parameters)
      : toolFailure(`unknown operation ${JSON.stringify(operation)}; calculator accepts evaluate`);
  return {
    descriptor: calculatorDescriptor,
    invoke: (operation, parameters, context) =>
      Promise.resolve().then(() => (context.signal.aborted ? toolFailure('aborted') : run(operation, parameters))),
  };
}
