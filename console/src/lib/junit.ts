// Reads the failed, errored and warned cases out of an eval run's JUnit report (the poll body has no
// per-case results). Parsed as XML by the browser: nothing in it is ever treated as markup or script.
// A <failure>'s text opens with its message again (JUnit readers show one or the other); the details
// here leave that opening out, so a page showing both says the reason once.

export interface CaseFailure {
  readonly dataset: string;
  readonly name: string;
  readonly kind: 'failure' | 'error';
  readonly message: string;
  /** The element's text, less the message when it opens with it. */
  readonly details: string;
}

export function caseFailures(xml: string): CaseFailure[] {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return [];
  const failures: CaseFailure[] = [];
  for (const testCase of Array.from(doc.getElementsByTagName('testcase'))) {
    for (const child of Array.from(testCase.children)) {
      if (child.tagName !== 'failure' && child.tagName !== 'error') continue;
      const message = child.getAttribute('message') ?? '';
      const text = child.textContent ?? '';
      failures.push({
        dataset: testCase.getAttribute('classname') ?? '',
        name: testCase.getAttribute('name') ?? '',
        kind: child.tagName,
        message,
        details: message !== '' && text.startsWith(message) ? text.slice(message.length) : text,
      });
    }
  }
  return failures;
}
