// Reads one step's `configuration` for its declared type: the discriminator must match the step
// type, required fields must be present, and every field must have its documented shape.
import { responseSchemaProblem } from '../../approvals/index.js';
import { parseTimeSpan } from '../../platform/config/index.js';
import { isStorableKey } from '../../platform/storage/index.js';
import type { DiagnosticList } from './diagnostic.js';
import { fieldsOf, stepConfigurationSchemas } from './definition-schemas.js';
import { isObject, optionalInteger, optionalObject, optionalString, requiredString, unknownFields, type FieldSite } from './json-fields.js';
import { DEFAULT_TOP_K, MAX_QUERIES, MAX_TOP_K, type JsonObject, type StepConfiguration, type StepType } from './workflow-definition.js';

const MAX_TEXT = 200_000;
const MAX_NAME = 256;
const MAX_QUERY = 2_000;
const MAX_CONDITION = 4_096;
const MAX_OUTPUT_TOKENS = 1_000_000;

export function readStepConfiguration(
  diagnostics: DiagnosticList,
  stepLabel: string,
  stepName: string | undefined,
  type: StepType,
  raw: unknown,
): StepConfiguration | undefined {
  const site: FieldSite = { diagnostics, label: `${stepLabel} configuration`, ...(stepName !== undefined ? { step: stepName } : {}) };
  const at = stepName !== undefined ? { step: stepName } : {};
  if (raw === undefined || raw === null) {
    diagnostics.add('missing-field', `${stepLabel} needs 'configuration'.`, at);
    return undefined;
  }
  if (!isObject(raw)) {
    diagnostics.add('invalid-field', `${stepLabel}: 'configuration' must be an object.`, at);
    return undefined;
  }
  if (raw.type === undefined || raw.type === null || raw.type === '') {
    diagnostics.add('missing-field', `${site.label} needs 'type' (the step type, '${type}').`, at);
    return undefined;
  }
  if (raw.type !== type) {
    diagnostics.add('configuration-type-mismatch', `${site.label} has type '${typeof raw.type === 'string' ? raw.type.slice(0, 64) : typeof raw.type}' but the step type is '${type}'.`, at);
    return undefined;
  }
  unknownFields(site, raw, allowedFields[type]);
  // Readers record every problem they find and still return what they could read (empty strings
  // for missing fields), so the later checks (templates, conditions, branches) report theirs too.
  return readers[type](site, raw);
}

type Reader = (site: FieldSite, raw: JsonObject) => StepConfiguration;

const allowedFields = Object.fromEntries(
  Object.entries(stepConfigurationSchemas).map(([type, schema]) => [type, fieldsOf(schema)]),
) as Record<StepType, readonly string[]>;

const readers: Readonly<Record<StepType, Reader>> = {
  LlmCall: llmCall,
  ToolUse: toolUse,
  HumanGate: humanGate,
  ConditionalBranch: conditionalBranch,
  SubPlanInvocation: subPlan,
  RetrievalPlan: retrievalPlan,
};

function llmCall(site: FieldSite, raw: JsonObject): StepConfiguration {
  const prompt = requiredString(site, raw, 'prompt', MAX_TEXT) ?? '';
  const system = optionalString(site, raw, 'system', MAX_TEXT);
  const maxOutputTokens = optionalInteger(site, raw, 'maxOutputTokens', 1, MAX_OUTPUT_TOKENS);
  return {
    type: 'LlmCall',
    prompt,
    ...(system !== undefined ? { system } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}

function toolUse(site: FieldSite, raw: JsonObject): StepConfiguration {
  const tool = requiredString(site, raw, 'tool', MAX_NAME) ?? '';
  const operation = requiredString(site, raw, 'operation', MAX_NAME) ?? '';
  const parameters = optionalObject(site, raw, 'parameters') ?? {};
  return { type: 'ToolUse', tool, operation, parameters };
}

function humanGate(site: FieldSite, raw: JsonObject): StepConfiguration {
  const message = requiredString(site, raw, 'message', MAX_TEXT) ?? '';
  const timeout = optionalString(site, raw, 'timeout', 64);
  if (timeout !== undefined && !((parseTimeSpan(timeout) ?? 0) > 0)) {
    site.diagnostics.add('invalid-field', `${site.label}: 'timeout' must be a positive TimeSpan such as 00:30:00.`, where(site));
  }
  const responseSchema = optionalObject(site, raw, 'responseSchema');
  if (responseSchema !== undefined) {
    const problem = responseSchemaProblem(responseSchema);
    if (problem !== null) site.diagnostics.add('invalid-field', `${site.label}: 'responseSchema' ${problem}.`, where(site));
  }
  const approverRoles = readApproverRoles(site, raw.approverRoles);
  return {
    type: 'HumanGate',
    message,
    ...(timeout !== undefined ? { timeout } : {}),
    ...(responseSchema !== undefined ? { responseSchema } : {}),
    ...(approverRoles !== undefined ? { approverRoles } : {}),
  };
}

const MAX_APPROVER_ROLES = 32;

function readApproverRoles(site: FieldSite, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const valid = Array.isArray(value) && value.length <= MAX_APPROVER_ROLES && value.every((role) => typeof role === 'string' && role.trim() !== '' && role.length <= MAX_NAME && isStorableKey(role));
  if (!valid) {
    site.diagnostics.add('invalid-field', `${site.label}: 'approverRoles' must be a list of at most ${MAX_APPROVER_ROLES} role names.`, where(site));
    return undefined;
  }
  return [...new Set(value as string[])];
}

function conditionalBranch(site: FieldSite, raw: JsonObject): StepConfiguration {
  const condition = requiredString(site, raw, 'condition', MAX_CONDITION) ?? '';
  const ifTrue = branchTarget(site, raw, 'ifTrue') ?? '';
  const ifFalse = branchTarget(site, raw, 'ifFalse') ?? '';
  return { type: 'ConditionalBranch', condition, ifTrue, ifFalse };
}

/** A missing branch target is the "incomplete branch" diagnostic, not a generic missing field. */
function branchTarget(site: FieldSite, raw: JsonObject, key: 'ifTrue' | 'ifFalse'): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null || value === '') {
    site.diagnostics.add('incomplete-branch', `${site.label} needs '${key}', the step to take when the condition is ${key === 'ifTrue' ? 'true' : 'false'}.`, where(site));
    return undefined;
  }
  return optionalString(site, raw, key, MAX_NAME);
}

function subPlan(site: FieldSite, raw: JsonObject): StepConfiguration {
  return { type: 'SubPlanInvocation', workflowId: requiredString(site, raw, 'workflowId', 100) ?? '' };
}

function retrievalPlan(site: FieldSite, raw: JsonObject): StepConfiguration {
  const index = requiredString(site, raw, 'index', MAX_NAME) ?? '';
  const topK = optionalInteger(site, raw, 'topK', 1, MAX_TOP_K) ?? DEFAULT_TOP_K;
  const queries = readQueries(site, raw.queries) ?? [];
  return { type: 'RetrievalPlan', index, queries, topK };
}

function readQueries(site: FieldSite, value: unknown): string[] | undefined {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
    site.diagnostics.add('missing-field', `${site.label} needs 'queries' (1 to ${MAX_QUERIES} strings).`, where(site));
    return undefined;
  }
  const ok =
    Array.isArray(value) &&
    value.length <= MAX_QUERIES &&
    value.every((q): q is string => typeof q === 'string' && q.trim() !== '' && q.length <= MAX_QUERY);
  if (!ok) {
    site.diagnostics.add('invalid-field', `${site.label}: 'queries' must be 1 to ${MAX_QUERIES} non-empty strings of at most ${MAX_QUERY} characters.`, where(site));
    return undefined;
  }
  return [...value];
}

function where(site: FieldSite): { step?: string } {
  return site.step === undefined ? {} : { step: site.step };
}
