// Validates a call's `parameters` against the operation's JSON Schema (ajv, compiled once per
// operation). Used by the governed call before it runs a tool.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ToolOperation } from './tool.js';

export const MAX_TOP_LEVEL_PARAMETERS = 64;

/** Where a schema error is and which keyword raised it. */
export interface SchemaError {
  readonly instancePath: string;
  readonly keyword: string;
}

export type ParameterCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly kind: 'too-many-parameters' | 'invalid-parameters'; readonly message: string };

export class ParameterValidator {
  readonly #ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: false, removeAdditional: false });
  readonly #compiled = new WeakMap<ToolOperation, ValidateFunction | null>();

  #compile(operation: ToolOperation): ValidateFunction | null {
    if (!this.#compiled.has(operation)) {
      let validate: ValidateFunction | null;
      try {
        validate = this.#ajv.compile(operation.parameters);
      } catch {
        validate = null; // a schema we cannot compile (e.g. a remote MCP server's) accepts nothing
      }
      this.#compiled.set(operation, validate);
    }
    return this.#compiled.get(operation) ?? null;
  }

  /** `ignore` drops schema errors the caller cannot judge yet (workflow values that are templates). */
  check(operation: ToolOperation, parameters: Readonly<Record<string, unknown>>, ignore?: (error: SchemaError) => boolean): ParameterCheck {
    if (Object.keys(parameters).length > MAX_TOP_LEVEL_PARAMETERS) {
      return { ok: false, kind: 'too-many-parameters', message: `too many parameters (at most ${MAX_TOP_LEVEL_PARAMETERS})` };
    }
    const validate = this.#compile(operation);
    if (validate === null) return { ok: false, kind: 'invalid-parameters', message: 'the operation’s parameter schema is unusable' };
    if (validate(parameters)) return { ok: true };
    const errors = (validate.errors ?? []).filter((e) => ignore === undefined || !ignore(e));
    if (errors.length === 0) return { ok: true };
    const issues = errors.slice(0, 5).map((e) => {
      const where = `parameters${e.instancePath}`;
      const extra = e.keyword === 'additionalProperties' ? ` '${String(e.params.additionalProperty).slice(0, 64)}'` : '';
      if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) {
        return `${where} must be one of: ${(e.params.allowedValues as unknown[]).map((v) => String(v).slice(0, 64)).join(', ')}`;
      }
      return `${where} ${e.message ?? 'is invalid'}${extra}`;
    });
    return { ok: false, kind: 'invalid-parameters', message: issues.join('; ') };
  }
}
