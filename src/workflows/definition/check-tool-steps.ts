// ToolUse steps must name a tool this host offers, one of its declared operations, and parameters
// that satisfy the operation's schema wherever they are literal: a value that is a template is known
// only at run time, so schema errors at or below it are left to the step runner (errors about which
// keys are present are not, since keys are never templated). Tools of MCP servers are checked when
// the run starts: validation never contacts a server. Whether the caller's envelope grants the tool
// is decided when the run starts, by the starting caller's envelope (runs/check-run-start.ts).
import type { ParameterValidator, SchemaError, ToolRegistry } from '../../tools/index.js';
import type { DiagnosticList } from './diagnostic.js';
import { closest } from './json-fields.js';
import { hasPlaceholder } from './parse-template.js';
import type { ReadDefinition } from './read-definition.js';
import type { JsonObject } from './workflow-definition.js';

export interface StepTools {
  readonly registry: Pick<ToolRegistry, 'lookupOffline' | 'builtinNames'>;
  readonly validator: Pick<ParameterValidator, 'check'>;
}

/** Keywords about which keys an object has: literal even when the values are templates. */
const KEY_KEYWORDS = new Set(['required', 'additionalProperties', 'unevaluatedProperties', 'minProperties', 'maxProperties', 'propertyNames', 'dependentRequired']);

export function checkToolSteps(definition: ReadDefinition, tools: StepTools, diagnostics: DiagnosticList): void {
  for (const step of definition.steps) {
    const configuration = step.configuration;
    if (configuration?.type !== 'ToolUse' || configuration.tool === '' || step.name === undefined) continue;
    const at = { step: step.name };
    const label = `Step '${step.name}'`;
    const tool = tools.registry.lookupOffline(configuration.tool);
    if (tool === 'mcp') continue;
    if (tool === undefined) {
      const near = closest(configuration.tool, tools.registry.builtinNames());
      diagnostics.add('unknown-tool', `${label}: 'tool' names no tool this host offers${near === undefined ? '' : ` (did you mean '${near}'?)`}; see GET /api/tools.`, at);
      continue;
    }
    if (configuration.operation === '') continue;
    const declared = tool.descriptor.operations;
    const operation = declared.find((op) => op.name === configuration.operation);
    if (operation === undefined) {
      diagnostics.add('unknown-operation', `${label}: 'operation' must be one of the operations '${tool.descriptor.name}' declares: ${declared.map((op) => op.name).join(', ')}.`, at);
      continue;
    }
    const check = tools.validator.check(operation, configuration.parameters, (error) => templatedAt(configuration.parameters, error));
    if (!check.ok) diagnostics.add('invalid-parameters', `${label}: the parameters of '${tool.descriptor.name}.${operation.name}' are invalid: ${check.message}.`, at);
  }
}

/** Whether the error concerns a value that contains a template (so it is decided at run time). */
function templatedAt(parameters: JsonObject, error: SchemaError): boolean {
  if (KEY_KEYWORDS.has(error.keyword)) return false;
  let value: unknown = parameters;
  for (const segment of error.instancePath.split('/').slice(1)) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return containsTemplate(value);
}

function containsTemplate(value: unknown): boolean {
  if (typeof value === 'string') return hasPlaceholder(value);
  if (Array.isArray(value)) return value.some(containsTemplate);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(containsTemplate);
  return false;
}
