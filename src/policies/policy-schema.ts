// The Cedar schema of DESIGN §18, generated from the catalog: entity types Caller (subject, string
// tags, member of Role), Role and Tool (riskTier, server, readOnly); the action group `call`; and one
// action per tool operation, `<catalog name>.<operation>`, whose context carries the call's facts and
// its arguments typed from the operation's parameter schema. Deterministic: the same catalog gives
// the same schema, whatever order the tools come in.
import type { ToolDescriptor } from '../tools/tool.js';
import type { CedarActionType, CedarAttribute, CedarRecordType, PolicySchema } from './cedar-schema-types.js';
import { argumentsTypeOf } from './cedar-type-of.js';

/** A catalog tool as the policy layer sees it: its descriptor and its MCP server's name ("" for built-ins). */
export interface PolicyTool {
  readonly descriptor: ToolDescriptor;
  readonly server: string;
}

export const POLICY_NAMESPACE = 'Portcullis';
/** The action group every tool action is a member of (`action in Portcullis::Action::"call"`). */
export const CALL_ACTION_GROUP = 'call';

/** The action of one tool operation: `clock.now`, `mcp__everything__echo.call`. */
export function policyActionName(tool: string, operation: string): string {
  return `${tool}.${operation}`;
}

const required = <T extends object>(type: T): T & { readonly required: true } => ({ ...type, required: true });
const STRING = required({ type: 'String' as const });
const LONG = required({ type: 'Long' as const });

const record = (attributes: Record<string, CedarAttribute>): CedarRecordType => ({ type: 'Record', attributes });

const RUN = required(record({ toolCalls: LONG, callsOfThisTool: LONG, spentMicroUsd: LONG }));

export function cedarSchemaFor(tools: readonly PolicyTool[]): PolicySchema {
  const actions: [string, CedarActionType][] = [];
  const byName = [...tools].sort((a, b) => compare(a.descriptor.name, b.descriptor.name));
  for (const { descriptor } of byName) {
    const operations = [...descriptor.operations].sort((a, b) => compare(a.name, b.name));
    for (const operation of operations) actions.push([policyActionName(descriptor.name, operation.name), actionType(argumentsTypeOf(operation.parameters))]);
  }
  refuseDuplicates(actions.map(([name]) => name));
  return {
    Portcullis: {
      entityTypes: {
        Caller: { memberOfTypes: ['Role'], shape: record({ subject: STRING }), tags: { type: 'String' } },
        Role: { memberOfTypes: [] },
        Tool: { memberOfTypes: [], shape: record({ riskTier: STRING, server: STRING, readOnly: required({ type: 'Boolean' as const }) }) },
      },
      actions: Object.fromEntries([[CALL_ACTION_GROUP, {}], ...actions]),
    },
  };
}

function actionType(argumentsType: CedarRecordType): CedarActionType {
  return {
    memberOf: [{ id: CALL_ACTION_GROUP }],
    appliesTo: {
      principalTypes: ['Caller'],
      resourceTypes: ['Tool'],
      context: record({ operation: STRING, surface: STRING, bundleId: STRING, run: RUN, utcHour: LONG, arguments: required(argumentsType) }),
    },
  };
}

/** Catalog names are unique (the registry refuses duplicates), so two equal action names are a programming error. */
function refuseDuplicates(names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name) || name === CALL_ACTION_GROUP) throw new Error(`cedarSchemaFor: two tool operations make the action "${name}"`);
    seen.add(name);
  }
}

/** Code-unit order, so the result does not depend on the host's locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
