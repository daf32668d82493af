// Loads a policy set (DESIGN §18): reads the `.cedar` files in configured order (absolute, or relative
// to `cwd`), parses each and validates it against the schema in Cedar's strict mode, and gives every
// policy its id (`@id("…")`, else `policy<N>` counting from 0 across the set) and the set its version
// (the first 12 hex digits of the SHA-256 of the files' contents concatenated in order). A set that
// cannot load is a list of errors, each naming the file, the line and Cedar's message; every file is
// checked, so all of them are reported at once. Sets beyond the bounds of policy-bounds.ts are refused.
// A policy naming an action of an MCP server that has not listed its tools cannot be validated yet: its
// errors do not refuse the set, the set records the server as `awaiting`, and `revalidatePolicySet`
// checks the same texts again once the server lists (the policy layer denies its tools until then).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { PolicySchema } from './cedar-schema-types.js';
import { asCedarSchema, loadCedar, type Cedar } from './cedar-module.js';
import { locatedMessage } from './cedar-message.js';
import { collapseErrors } from './collapse-errors.js';
import { parsePolicyFile, type ParsedPolicy } from './parse-policy-file.js';
import { unlistedServersNamedBy } from './awaited-servers.js';
import { annotationsOf } from './policy-annotations.js';
import { LIKE_WORK_BUDGET, MAX_POLICIES, MAX_POLICY_TEXT_BYTES } from './policy-bounds.js';
import { readsOf, type PolicyReads } from './policy-reads.js';
import { recordNamesOf } from './record-names.js';
import { SourceLines } from './source-lines.js';

export interface PolicyEntry {
  /** `@id("…")`, else `policy<N>`. */
  readonly id: string;
  /** The id Cedar knows it by in this set: `policy<N>`, unique whatever the annotations say. */
  readonly cedarId: string;
  readonly effect: 'permit' | 'forbid';
  /** Annotated `@approval("required")`: when it determines an allow, the call asks a person. */
  readonly approval: boolean;
  /** As configured. */
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly json: PolicyJson;
  readonly reads: PolicyReads;
}

/** A problem that refuses the set (`line` null when it is not one line's: a file that cannot be read). */
export interface PolicySetError {
  readonly file: string;
  readonly line: number | null;
  readonly message: string;
}

/** Cedar's validation warnings and the layer's own; never fatal. */
export interface PolicyWarning extends PolicySetError {
  readonly policyId: string | null;
}

export interface LoadedPolicySet {
  readonly version: string;
  readonly files: readonly string[];
  readonly policies: readonly PolicyEntry[];
  readonly warnings: readonly PolicyWarning[];
  readonly schema: PolicySchema;
  /** The Cedar engine the set was checked with; the decider evaluates with the same one. */
  readonly cedar: Cedar;
  /** MCP servers (lower-cased) some policy names an action of that could not be validated: they have not listed their tools. */
  readonly awaiting: readonly string[];
  /** The files' contents as read, so the set can be validated again against a new catalog without re-reading them. */
  readonly texts: readonly FileText[];
}

export type PolicySetLoad = { readonly ok: true; readonly set: LoadedPolicySet } | { readonly ok: false; readonly errors: readonly PolicySetError[] };

export interface FileText {
  readonly file: string;
  readonly lines: SourceLines;
}

/** `unlisted`: configured MCP servers that could not list their tools (see the header). */
export async function loadPolicySet(files: readonly string[], cwd: string, schema: PolicySchema, unlisted: readonly string[] = []): Promise<PolicySetLoad> {
  const read = await readFiles(files, cwd);
  if (!read.ok) return read;
  return checkTexts(files, read.texts, schema, unlisted);
}

/** The same files' contents as `set` was loaded from, validated against another schema (an MCP server listed, or listed other tools). */
export async function revalidatePolicySet(set: LoadedPolicySet, schema: PolicySchema, unlisted: readonly string[]): Promise<PolicySetLoad> {
  return checkTexts(set.files, set.texts, schema, unlisted);
}

async function checkTexts(files: readonly string[], texts: readonly FileText[], schema: PolicySchema, unlisted: readonly string[]): Promise<PolicySetLoad> {
  const cedar = await loadCedar();
  const schemaCheck = cedar.checkParseSchema(asCedarSchema(schema));
  if (schemaCheck.type === 'failure') return refuse('(schema)', null, `the generated schema does not parse: ${schemaCheck.errors.map((e) => e.message).join('; ')}`);
  const checked = checkFiles(cedar, texts, schema, unlisted);
  if (checked.errors.length > 0) return { ok: false, errors: collapseErrors(checked.errors) };
  const assembled = assemble(checked.parsed, schema);
  if (assembled.errors.length > 0) return { ok: false, errors: assembled.errors };
  const version = versionOf(texts);
  const warnings = [...checked.warnings.map((w) => named(w, assembled.policies)), ...assembled.warnings];
  if (assembled.policies.length === 0) warnings.push({ file: files.join(', '), line: null, policyId: null, message: 'the set holds no policy: every call is denied' });
  const awaiting = [...checked.awaiting].sort();
  return { ok: true, set: { version, files: [...files], policies: assembled.policies, warnings, schema, cedar, awaiting, texts } };
}

async function readFiles(files: readonly string[], cwd: string): Promise<{ ok: true; texts: FileText[] } | { ok: false; errors: PolicySetError[] }> {
  const errors: PolicySetError[] = [];
  const texts: FileText[] = [];
  let total = 0;
  for (const file of files) {
    try {
      const bytes = await readFile(resolve(cwd, file));
      const before = total;
      total += bytes.length;
      if (total > MAX_POLICY_TEXT_BYTES && before <= MAX_POLICY_TEXT_BYTES) errors.push({ file, line: null, message: `the policy files hold ${total} bytes up to this one; a set may hold at most ${MAX_POLICY_TEXT_BYTES} (decision 3801)` });
      texts.push({ file, lines: new SourceLines(bytes) });
    } catch (error) {
      errors.push({ file, line: null, message: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, texts };
}

interface ParsedFilePolicies {
  readonly file: string;
  readonly policies: readonly ParsedPolicy[];
}

/**
 * Parses and strictly validates each file on its own, so Cedar's offsets are that file's. A validation
 * error of a policy that names an action of an `unlisted` server is not an error yet: that server is awaited.
 */
function checkFiles(cedar: Cedar, texts: readonly FileText[], schema: PolicySchema, unlisted: readonly string[]) {
  const errors: PolicySetError[] = [];
  const awaiting = new Set<string>();
  const warnings: (PolicyWarning & { readonly local: string | null })[] = [];
  const parsed: ParsedFilePolicies[] = [];
  let count = 0;
  for (const { file, lines } of texts) {
    const parsedFile = parsePolicyFile(cedar, lines, MAX_POLICIES - count);
    if (!parsedFile.ok) {
      errors.push(...parsedFile.errors.map((e) => ({ file, ...e })));
      continue;
    }
    parsed.push({ file, policies: parsedFile.policies });
    count += parsedFile.policies.length;
    const answer = cedar.validate({ schema: asCedarSchema(schema), policies: { staticPolicies: lines.bytes.toString('utf8') }, validationSettings: { mode: 'strict' } });
    if (answer.type === 'failure') {
      errors.push(...answer.errors.map((e) => ({ file, ...locatedMessage(e, lines) })));
      continue;
    }
    for (const { policyId, error } of answer.validationErrors) {
      const policy = parsedFile.policies[Number(policyId.slice('policy'.length))];
      const servers = policy === undefined ? [] : unlistedServersNamedBy(policy.json, unlisted);
      if (servers.length > 0) for (const server of servers) awaiting.add(server);
      else errors.push({ file, ...locatedMessage(error, lines) });
    }
    warnings.push(...answer.validationWarnings.map((w) => ({ file, policyId: null, local: w.policyId, ...locatedMessage(w.error, lines) })));
    warnings.push(...answer.otherWarnings.map((w) => ({ file, policyId: null, local: null, ...locatedMessage(w, lines) })));
  }
  return { errors, warnings, parsed, awaiting };
}

/** Numbers the policies across the set, reads their annotations and refuses what the bounds do not allow. */
function assemble(files: readonly ParsedFilePolicies[], schema: PolicySchema) {
  const errors: PolicySetError[] = [];
  const warnings: PolicyWarning[] = [];
  const policies: PolicyEntry[] = [];
  const recordNames = recordNamesOf(schema);
  for (const { file, policies: parsed } of files) {
    for (const policy of parsed) {
      const cedarId = `policy${policies.length}`;
      const annotations = annotationsOf(policy.json);
      if (annotations.problem !== null) errors.push({ file, line: policy.line, message: annotations.problem });
      const id = annotations.id ?? cedarId;
      if (annotations.warning !== null) warnings.push({ file, line: policy.line, policyId: id, message: annotations.warning });
      const reads = readsOf(policy.json, recordNames);
      const fixedLikeWork = reads.likes.reduce((sum, like) => sum + (like.patternLength + 1) * (like.literal + 1), 0);
      if (fixedLikeWork > LIKE_WORK_BUDGET) errors.push({ file, line: policy.line, message: `its \`like\` patterns on its own text need ${fixedLikeWork} steps; a decision may spend at most ${LIKE_WORK_BUDGET} (decision 3801)` });
      policies.push({ id, cedarId, effect: policy.json.effect, approval: annotations.approval, file, line: policy.line, text: policy.text, json: policy.json, reads });
    }
  }
  errors.push(...duplicateIds(policies));
  return { errors, warnings, policies };
}

function duplicateIds(policies: readonly PolicyEntry[]): PolicySetError[] {
  const first = new Map<string, PolicyEntry>();
  const errors: PolicySetError[] = [];
  for (const policy of policies) {
    const earlier = first.get(policy.id);
    if (earlier === undefined) first.set(policy.id, policy);
    else errors.push({ file: policy.file, line: policy.line, message: `the policy id "${policy.id}" is already used by the policy at ${earlier.file}:${earlier.line}; ids must be unique across the set` });
  }
  return errors;
}

/** A warning Cedar gave about the file's `policy<k>`: named by the set's id for that policy. */
function named(warning: PolicyWarning & { readonly local: string | null }, policies: readonly PolicyEntry[]): PolicyWarning {
  const { local, ...rest } = warning;
  if (local === null) return rest;
  const inFile = policies.filter((p) => p.file === warning.file);
  const policy = inFile[Number(local.slice('policy'.length))];
  return { ...rest, policyId: policy?.id ?? null };
}

function versionOf(texts: readonly FileText[]): string {
  const hash = createHash('sha256');
  for (const { lines } of texts) hash.update(lines.bytes);
  return hash.digest('hex').slice(0, 12);
}

function refuse(file: string, line: number | null, message: string): PolicySetLoad {
  return { ok: false, errors: [{ file, line, message }] };
}
