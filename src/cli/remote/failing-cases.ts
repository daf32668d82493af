// The cases a finished eval run did not pass, read from its JUnit report (GET …/report.xml), for the
// summary `eval run --wait` prints: the poll body counts them, only the report names them. Each is
// `failed` (an error-severity assertion, its message) or `errored` (the case's error); regressions that
// only warned are left to the summary's own `regressed` lines. Parsed with fast-xml-parser.
import { XMLParser } from 'fast-xml-parser';

export interface FailingCase {
  readonly outcome: 'failed' | 'errored';
  readonly dataset: string;
  /** The case id (with `[repeat k/n]` when the run repeated its cases). */
  readonly name: string;
  readonly message: string;
}

interface Problem {
  readonly type?: string;
  readonly message?: string;
}

interface TestCase {
  readonly classname?: string;
  readonly name?: string;
  readonly failure?: readonly Problem[];
  readonly error?: readonly Problem[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  processEntities: true,
  // Numeric character references (&#10; for a line break in an attribute) are decoded only with it.
  htmlEntities: true,
  isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'failure' || name === 'error',
});

export function failingCases(xml: string): FailingCase[] {
  const document = parser.parse(xml) as { testsuites?: { testsuite?: ReadonlyArray<{ testcase?: readonly TestCase[] }> } };
  const failing: FailingCase[] = [];
  for (const suite of document.testsuites?.testsuite ?? []) {
    for (const testCase of suite.testcase ?? []) {
      const at = { dataset: String(testCase.classname ?? ''), name: String(testCase.name ?? '') };
      const error = testCase.error?.[0];
      const failure = testCase.failure?.find((problem) => problem.type !== 'regression');
      if (error !== undefined) failing.push({ outcome: 'errored', ...at, message: String(error.message ?? 'errored') });
      else if (failure !== undefined) failing.push({ outcome: 'failed', ...at, message: String(failure.message ?? 'failed') });
    }
  }
  return failing;
}

/** The most characters of a message a summary line shows. */
const MAX_MESSAGE_CHARS = 200;

/** One summary line: `  failed <dataset> <name>: <message>`, the message on one line and cut at 200 characters. */
export function failingCaseLine(failing: FailingCase): string {
  const message = failing.message.replace(/\s*\n\s*/g, ' ');
  const cut = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
  return `  ${failing.outcome} ${failing.dataset} ${failing.name}: ${cut}`;
}
