// A dataset that does not follow DESIGN.md §7. The message names the file (never its host path) and,
// where it can, the case, so the author can find the mistake; it never quotes file content at length.
import { ProblemError } from '../../platform/problems/index.js';

export class DatasetInvalid extends ProblemError {
  readonly fileName: string;
  readonly caseRef: string | null;

  constructor(fileName: string, caseRef: string | null, problem: string) {
    super('validation-failed', `Dataset file '${fileName}'${caseRef === null ? '' : `, ${caseRef}`}: ${problem}.`);
    this.fileName = fileName;
    this.caseRef = caseRef;
  }
}
