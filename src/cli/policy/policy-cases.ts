// The cases file of `portcullis policy test` (DESIGN §18): YAML, `cases:` a list, each case naming a
// caller, a call and the decision expected of the policy layer. Every problem is reported at once,
// naming the case; unknown keys are problems too, so a misspelt `expected:` is not silently ignored.
import { parseDocument } from 'yaml';
import type { PolicySurface, PolicyVerdict } from '../../policies/index.js';

export interface PolicyCase {
  readonly name: string;
  readonly principal: { readonly ownerId: string; readonly subject: string; readonly roles: readonly string[]; readonly claims: Readonly<Record<string, string>> };
  readonly tool: string;
  readonly operation: string;
  readonly arguments: unknown;
  readonly surface: PolicySurface;
  readonly bundleId: string;
  readonly run: { readonly toolCalls: number; readonly callsOfThisTool: number; readonly spentMicroUsd: number };
  readonly utcHour: number;
  readonly expect: PolicyVerdict;
}

export type ParsedCases = { readonly ok: true; readonly cases: readonly PolicyCase[] } | { readonly ok: false; readonly problems: readonly string[] };

const CASE_KEYS = new Set(['name', 'principal', 'tool', 'operation', 'arguments', 'surface', 'bundleId', 'run', 'utcHour', 'expect']);
const PRINCIPAL_KEYS = new Set(['subject', 'roles', 'claims', 'ownerId']);
const RUN_KEYS = ['toolCalls', 'callsOfThisTool', 'spentMicroUsd'] as const;
const SURFACES: readonly string[] = ['bundle', 'workflow', 'eval', 'direct', 'mcp'];
const VERDICTS: readonly string[] = ['allow', 'ask', 'deny'];
/** Noon: a case without `utcHour` does not depend on when it runs. */
export const DEFAULT_UTC_HOUR = 12;

type Fields = Readonly<Record<string, unknown>>;

export function parsePolicyCases(text: string): ParsedCases {
  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length > 0) return { ok: false, problems: document.errors.map((error) => error.message) };
  const root: unknown = document.toJS({ maxAliasCount: 100 });
  const list = isFields(root) ? root['cases'] : undefined;
  if (!Array.isArray(list) || list.length === 0) return { ok: false, problems: ['the file must hold `cases:`, a list of at least one case'] };
  const problems: string[] = [];
  const cases = list.map((raw: unknown, index) => readCase(raw, index, problems));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, cases };
}

function readCase(raw: unknown, index: number, problems: string[]): PolicyCase {
  const fields: Fields = isFields(raw) ? raw : {};
  const label = `case ${index + 1}${typeof fields['name'] === 'string' ? ` ("${fields['name']}")` : ''}`;
  const problem = (text: string): void => void problems.push(`${label}: ${text}`);
  if (!isFields(raw)) problem('is not a mapping');
  for (const key of Object.keys(fields)) if (!CASE_KEYS.has(key)) problem(`unknown key "${key}"`);
  const text = (key: string, fallback?: string): string => {
    const value = fields[key] ?? fallback;
    if (typeof value === 'string' && (value !== '' || fallback !== undefined)) return value;
    problem(`${key} must be ${fallback === undefined ? 'a non-empty string' : 'a string'}`);
    return '';
  };
  const expectation = text('expect');
  if (expectation !== '' && !VERDICTS.includes(expectation)) problem('expect must be allow, ask or deny');
  const surface = text('surface', 'direct');
  if (!SURFACES.includes(surface)) problem(`surface must be one of ${SURFACES.join(', ')}`);
  return {
    name: text('name'),
    principal: readPrincipal(fields['principal'], problem),
    tool: text('tool'),
    operation: text('operation'),
    arguments: fields['arguments'] ?? {},
    surface: surface as PolicySurface,
    bundleId: text('bundleId', ''),
    run: readRun(fields['run'], problem),
    utcHour: readCount(fields['utcHour'] ?? DEFAULT_UTC_HOUR, 'utcHour', problem, 23),
    expect: expectation as PolicyVerdict,
  };
}

function readPrincipal(raw: unknown, problem: (text: string) => void): PolicyCase['principal'] {
  if (!isFields(raw)) {
    problem('principal must be a mapping with at least `subject`');
    return { ownerId: '', subject: '', roles: [], claims: {} };
  }
  for (const key of Object.keys(raw)) if (!PRINCIPAL_KEYS.has(key)) problem(`unknown key "principal.${key}"`);
  const subject = typeof raw['subject'] === 'string' ? raw['subject'] : (problem('principal.subject must be a string'), '');
  const ownerId = raw['ownerId'] === undefined ? subject : typeof raw['ownerId'] === 'string' ? raw['ownerId'] : (problem('principal.ownerId must be a string'), '');
  const roles = raw['roles'] ?? [];
  if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string')) problem('principal.roles must be a list of strings');
  const claims = raw['claims'] ?? {};
  if (!isFields(claims) || !Object.values(claims).every((value) => typeof value === 'string')) problem('principal.claims must map names to strings (tags are string claims)');
  return { ownerId, subject, roles: Array.isArray(roles) ? roles.map(String) : [], claims: isFields(claims) ? (claims as Record<string, string>) : {} };
}

function readRun(raw: unknown, problem: (text: string) => void): PolicyCase['run'] {
  if (raw === undefined) return { toolCalls: 0, callsOfThisTool: 0, spentMicroUsd: 0 };
  if (!isFields(raw)) {
    problem('run must be a mapping of toolCalls, callsOfThisTool, spentMicroUsd');
    return { toolCalls: 0, callsOfThisTool: 0, spentMicroUsd: 0 };
  }
  for (const key of Object.keys(raw)) if (!(RUN_KEYS as readonly string[]).includes(key)) problem(`unknown key "run.${key}"`);
  const [toolCalls, callsOfThisTool, spentMicroUsd] = RUN_KEYS.map((key) => readCount(raw[key] ?? 0, `run.${key}`, problem));
  return { toolCalls: toolCalls ?? 0, callsOfThisTool: callsOfThisTool ?? 0, spentMicroUsd: spentMicroUsd ?? 0 };
}

function readCount(value: unknown, key: string, problem: (text: string) => void, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max) return value;
  problem(`${key} must be a whole number from 0 to ${max}`);
  return 0;
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
