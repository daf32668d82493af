// The calculator tool's catalog descriptor: flags per DESIGN §4 and the `evaluate` parameters schema. It
// holds no behaviour.
import type { ToolDescriptor } from '../../tool.js';
import { MAX_EXPRESSION_LENGTH } from './evaluate-expression.js';

export const calculatorDescriptor: ToolDescriptor = {
  name: 'calculator',
  description: 'Evaluates arithmetic on real numbers exactly as a double-precision calculator would.',
  operations: [
    {
      name: 'evaluate',
      description:
        'Evaluates an arithmetic expression and returns { expression, result }. Operators: + - * / % (remainder) ' +
        '^ or ** (power, right-associative) ! (factorial) and parentheses. Constants: pi, e, tau, phi. Functions: ' +
        'abs sign sqrt cbrt exp ln log(x[, base]) log10 log2 sin cos tan asin acos atan atan2 sinh cosh tanh floor ' +
        'ceil trunc round(x[, digits]) min max hypot pow mod (floored) factorial. Angles are in radians. Results ' +
        'that are not finite numbers (overflow, division by zero, sqrt(-1)) fail.',
      parameters: {
        type: 'object',
        properties: {
          expression: {
            type: 'string',
            minLength: 1,
            maxLength: MAX_EXPRESSION_LENGTH,
            description: 'e.g. "(2 + 3) * sqrt(16) / 4" or "round(100 * 1.075^10, 2)".',
          },
        },
        required: ['expression'],
        additionalProperties: false,
      },
    },
  ],
  riskTier: 'Trivial',
  isReadOnly: true,
  isConcurrencySafe: true,
  isDirectlyInvocable: true,
  reachesNetwork: false,
};
