// Parses and validates one dataset file (DESIGN.md §7): a YAML or JSON object with `description`,
// `subject`, `cases` (and an optional default `timeoutSeconds`), or JSONL with one case per line and
// the default subject. Every error names the file and, when it is about a case, the case.
import { createSchemaCompiler } from '../assertions/schema-compiler.js';
import type { Dataset, EvalCase } from './dataset.js';
import type { DatasetFormat } from './dataset-formats.js';
import { DatasetInvalid } from './dataset-invalid.js';
import { isObject, optionalPositiveNumber, optionalString, refuseUnknownKeys } from './fields.js';
import { InvalidField } from './invalid-field.js';
import { parseJsonText, parseYamlText } from './parse-structured-text.js';
import { MAX_TIMEOUT_SECONDS, readCase, readId } from './read-case.js';
import { readSubject } from './read-subject.js';

export const DEFAULT_CASE_TIMEOUT_MS = 120_000;

export interface DatasetSource {
  readonly name: string;
  readonly fileName: string;
  readonly format: DatasetFormat;
}

export interface DatasetLimits {
  /** Evaluation:MaxAssertionsPerCase: every assertion is judged and kept once per repeat. */
  readonly maxAssertionsPerCase: number;
}

export function parseDataset(source: DatasetSource, text: string, limits: DatasetLimits): Dataset {
  const invalid = (caseRef: string | null, problem: string): DatasetInvalid => new DatasetInvalid(source.fileName, caseRef, problem);
  if (source.format === 'jsonl') return parseJsonLines(source, text, limits, invalid);
  const document = source.format === 'yaml' ? parseYamlText(text) : parseJsonText(text);
  if (!document.ok) throw invalid(null, document.problem);
  if (!isObject(document.value)) throw invalid(null, 'must be an object with `cases`');
  const top = document.value;
  let timeoutMs: number;
  try {
    refuseUnknownKeys(top, ['description', 'subject', 'cases', 'timeoutSeconds'], 'the dataset');
    const seconds = optionalPositiveNumber(top, 'timeoutSeconds', '', MAX_TIMEOUT_SECONDS);
    timeoutMs = seconds === undefined ? DEFAULT_CASE_TIMEOUT_MS : Math.round(seconds * 1000);
    if (!Array.isArray(top.cases) || top.cases.length === 0) throw new InvalidField('cases', 'must list at least one case');
    const description = optionalString(top, 'description', '')?.trim() || null;
    const subject = readSubject(top.subject);
    const compileSchema = createSchemaCompiler();
    const cases = top.cases.map((raw: unknown, index) => {
      const ref = caseRef(raw, index);
      try {
        return readCase(raw, { id: `case-${index + 1}`, timeoutMs, compileSchema, ...limits });
      } catch (error) {
        throw rethrow(error, ref, invalid);
      }
    });
    return { name: source.name, fileName: source.fileName, description, subject, cases: unique(cases, invalid) };
  } catch (error) {
    throw rethrow(error, null, invalid);
  }
}

function parseJsonLines(
  source: DatasetSource,
  text: string,
  limits: DatasetLimits,
  invalid: (ref: string | null, problem: string) => DatasetInvalid,
): Dataset {
  const compileSchema = createSchemaCompiler();
  const cases: EvalCase[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const ref = `line ${index + 1}`;
    const parsed = parseJsonText(line);
    if (!parsed.ok) throw invalid(ref, parsed.problem);
    let label = ref;
    try {
      const named = isObject(parsed.value) ? readId(parsed.value) : undefined;
      if (named !== undefined) label = `${ref} (case '${named}')`;
      cases.push(readCase(parsed.value, { id: `line-${index + 1}`, timeoutMs: DEFAULT_CASE_TIMEOUT_MS, compileSchema, ...limits }));
    } catch (error) {
      throw rethrow(error, label, invalid);
    }
  }
  if (cases.length === 0) throw invalid(null, 'has no cases (one JSON object per line)');
  return { name: source.name, fileName: source.fileName, description: null, subject: readSubject(undefined), cases: unique(cases, invalid) };
}

/** How an error names a case: its id when it has a readable one, else its position. */
function caseRef(raw: unknown, index: number): string {
  try {
    const id = isObject(raw) ? readId(raw) : undefined;
    return id === undefined ? `case #${index + 1}` : `case '${id}' (#${index + 1})`;
  } catch {
    return `case #${index + 1}`;
  }
}

function unique(cases: EvalCase[], invalid: (ref: string | null, problem: string) => DatasetInvalid): EvalCase[] {
  const seen = new Set<string>();
  for (const evalCase of cases) {
    if (seen.has(evalCase.id)) throw invalid(`case '${evalCase.id}'`, 'reuses an id another case of this dataset has');
    seen.add(evalCase.id);
  }
  return cases;
}

function rethrow(error: unknown, ref: string | null, invalid: (ref: string | null, problem: string) => DatasetInvalid): unknown {
  if (error instanceof InvalidField) return invalid(ref, `${error.path} ${error.problem}`);
  return error;
}
