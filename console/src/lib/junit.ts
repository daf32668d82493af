// Reads the failed, errored and warned cases out of an eval run's JUnit report (the poll body has no
// per-case results). Parsed as XML by the browser: nothing in it is ever treated as markup or script.

export interface CaseFailure {
  readonly dataset: string;
  readonly name: string;
  readonly kind: 'failure' | 'error';
  readonly message: string;
  readonly details: string;
}

export function caseFailures(xml: string): CaseFailure[] {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return [];
  const failures: CaseFailure[] = [];
  for (const testCase of Array.from(doc.getElementsByTagName('testcase'))) {
    for (const child of Array.from(testCase.children)) {
      if (child.tagName !== 'failure' && child.tagName !== 'error') continue;
      failures.push({
        dataset: testCase.getAttribute('classname') ?? '',
        name: testCase.getAttribute('name') ?? '',
        kind: child.tagName,
        message: child.getAttribute('message') ?? '',
        details: child.textContent ?? '',
      });
    }
  }
  return failures;
}
