// The checks every agent-driven surface makes before a tool call reaches the governor: the operation
// must be declared and the parameters must satisfy its schema. A refusal carries a host-written
// reason the model can act on (it names the operation or the schema rule, never tool or exception
// text), so a model that left out `index` learns that it did.
import type { ParameterValidator } from './parameter-validator.js';
import type { Tool, ToolOperation } from './tool.js';

export type ToolCallCheck =
  | { readonly ok: true; readonly operation: ToolOperation }
  | { readonly ok: false; readonly reason: string };

export function checkToolCall(
  tool: Tool,
  operationName: string,
  parameters: Readonly<Record<string, unknown>>,
  validator: Pick<ParameterValidator, 'check'>,
): ToolCallCheck {
  const { name, operations } = tool.descriptor;
  const operation = operations.find((op) => op.name === operationName);
  if (operation === undefined) {
    return { ok: false, reason: `${name} declares no such operation; "operation" must be one of: ${operations.map((op) => op.name).join(', ')}` };
  }
  const check = validator.check(operation, parameters);
  if (!check.ok) return { ok: false, reason: `the parameters of ${name}.${operation.name} are invalid: ${check.message}` };
  return { ok: true, operation };
}
