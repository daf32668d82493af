// First pass over an untrusted submit body: reads the workflow's name, steps, edges and workflow
// configuration into typed values, recording a diagnostic for every missing or malformed field.
// Graph, reference and sub-plan checks run afterwards on what could be read.
import type { DiagnosticList } from './diagnostic.js';
import { definitionFields, edgeFields, stepFields, workflowConfigurationFields } from './definition-schemas.js';
import { closest, isObject, optionalObject, optionalString, requiredString, unknownFields, type FieldSite } from './json-fields.js';
import { readStepConfiguration } from './read-step-configuration.js';
import { isValidStepName, MAX_STEP_NAME_LENGTH } from './step-name.js';
import { stepTypes, type JsonObject, type StepConfiguration, type StepType } from './workflow-definition.js';

export interface ReadStep {
  readonly index: number;
  /** Undefined when missing, malformed or a duplicate of an earlier step's name. */
  readonly name: string | undefined;
  readonly type: StepType | undefined;
  readonly configuration: StepConfiguration | undefined;
}

export interface ReadEdge {
  readonly index: number;
  readonly from: string | undefined;
  readonly to: string | undefined;
}

export interface ReadDefinition {
  readonly name: string | undefined;
  readonly steps: readonly ReadStep[];
  readonly edges: readonly ReadEdge[];
  /** `configuration.entryStep` as submitted; the first step applies when absent. */
  readonly entryStep: string | undefined;
  readonly input: JsonObject;
  /** `edges` is absent but an unknown top-level field looks like it (`edgez`): reachability would only add noise. */
  readonly edgesMisspelled: boolean;
}

export function readDefinition(body: unknown, diagnostics: DiagnosticList, maxSteps: number): ReadDefinition {
  if (!isObject(body)) {
    diagnostics.add('invalid-definition', 'The workflow definition must be a JSON object.');
    return { name: undefined, steps: [], edges: [], entryStep: undefined, input: {}, edgesMisspelled: false };
  }
  const site: FieldSite = { diagnostics, label: 'The workflow' };
  const unknown = unknownFields(site, body, definitionFields);
  const edgesMisspelled = body.edges === undefined && unknown.some((key) => closest(key, definitionFields) === 'edges');
  const name = requiredString(site, body, 'name', 200);
  const configuration = optionalObject(site, body, 'configuration') ?? {};
  const configSite: FieldSite = { diagnostics, label: 'The workflow configuration' };
  unknownFields(configSite, configuration, workflowConfigurationFields);
  const entryStep = optionalString(configSite, configuration, 'entryStep', MAX_STEP_NAME_LENGTH);
  const input = optionalObject(configSite, configuration, 'input') ?? {};
  const steps = readSteps(diagnostics, body.steps, maxSteps);
  const edges = readEdges(diagnostics, body.edges);
  return { name, steps, edges, entryStep, input, edgesMisspelled };
}

function readSteps(diagnostics: DiagnosticList, raw: unknown, maxSteps: number): ReadStep[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
    diagnostics.add('missing-field', 'The workflow needs at least one step in \'steps\'.');
    return [];
  }
  if (!Array.isArray(raw)) {
    diagnostics.add('invalid-field', 'The workflow: \'steps\' must be an array.');
    return [];
  }
  if (raw.length > maxSteps) {
    diagnostics.add('too-many-steps', `The workflow has ${raw.length} steps; at most ${maxSteps} are allowed.`);
  }
  const seen = new Set<string>();
  return (raw as unknown[]).map((value, index) => readStep(diagnostics, value, index, seen));
}

function readStep(diagnostics: DiagnosticList, raw: unknown, index: number, seen: Set<string>): ReadStep {
  const label = `Step ${index}`;
  if (!isObject(raw)) {
    diagnostics.add('invalid-field', `${label} must be an object.`);
    return { index, name: undefined, type: undefined, configuration: undefined };
  }
  const name = readStepName(diagnostics, raw.name, label, seen);
  const stepLabel = name === undefined ? label : `Step '${name}'`;
  const at = name === undefined ? {} : { step: name };
  unknownFields({ diagnostics, label: stepLabel, ...at }, raw, stepFields);
  let type: StepType | undefined;
  if (raw.type === undefined || raw.type === null || raw.type === '') {
    diagnostics.add('missing-field', `${stepLabel} needs 'type'.`, at);
  } else if (typeof raw.type === 'string' && (stepTypes as readonly string[]).includes(raw.type)) {
    type = raw.type as StepType;
  } else {
    diagnostics.add('unknown-step-type', `${stepLabel} has an unknown type; expected one of ${stepTypes.join(', ')}.`, at);
  }
  const configuration = type === undefined ? undefined : readStepConfiguration(diagnostics, stepLabel, name, type, raw.configuration);
  return { index, name, type, configuration };
}

function readStepName(diagnostics: DiagnosticList, raw: unknown, label: string, seen: Set<string>): string | undefined {
  if (raw === undefined || raw === null || raw === '') {
    diagnostics.add('missing-field', `${label} needs 'name'.`);
    return undefined;
  }
  if (typeof raw !== 'string' || !isValidStepName(raw)) {
    diagnostics.add(
      'invalid-step-name',
      `${label} has an invalid name: 1 to ${MAX_STEP_NAME_LENGTH} characters, no surrounding spaces, no '.', '/', '{', '}' or control characters.`,
    );
    return undefined;
  }
  if (seen.has(raw)) {
    diagnostics.add('duplicate-step-name', `${label} repeats the name '${raw}' of an earlier step.`, { step: raw });
    return undefined;
  }
  seen.add(raw);
  return raw;
}

function readEdges(diagnostics: DiagnosticList, raw: unknown): ReadEdge[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    diagnostics.add('invalid-field', 'The workflow: \'edges\' must be an array.');
    return [];
  }
  return (raw as unknown[]).map((value, index) => readEdge(diagnostics, value, index));
}

function readEdge(diagnostics: DiagnosticList, raw: unknown, index: number): ReadEdge {
  if (!isObject(raw)) {
    diagnostics.add('invalid-field', `Edge ${index} must be an object.`, { edge: index });
    return { index, from: undefined, to: undefined };
  }
  unknownFields({ diagnostics, label: `Edge ${index}` }, raw, edgeFields, { edge: index });
  const end = (key: 'from' | 'to'): string | undefined => {
    const value = raw[key];
    if (value === undefined || value === null || value === '') {
      diagnostics.add('missing-field', `Edge ${index} needs '${key}' (a step name).`, { edge: index });
      return undefined;
    }
    if (typeof value !== 'string') {
      diagnostics.add('invalid-field', `Edge ${index}: '${key}' must be a step name.`, { edge: index });
      return undefined;
    }
    return value;
  };
  const from = end('from');
  const to = end('to');
  if (raw.type !== undefined && raw.type !== null && raw.type !== 'ControlFlow') {
    diagnostics.add('invalid-field', `Edge ${index}: 'type' must be 'ControlFlow'.`, { edge: index });
  }
  return { index, from, to };
}
