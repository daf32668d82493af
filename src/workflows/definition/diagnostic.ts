// One structural problem of a workflow definition. Validation collects every one of them before
// answering, so a caller fixes a definition in one round trip instead of one error at a time. A few
// are found only when a run starts: what the starting caller's envelope grants and the host offers.

/** What validate and submit report. */
export const definitionDiagnosticCodes = [
  'invalid-definition',
  'missing-field',
  'invalid-field',
  'unknown-field',
  'too-many-steps',
  'invalid-step-name',
  'duplicate-step-name',
  'unknown-step-type',
  'configuration-type-mismatch',
  'unknown-entry-step',
  'unknown-edge-end',
  'duplicate-edge',
  'cycle',
  'unreachable-step',
  'incomplete-branch',
  'undeclared-branch-edge',
  'invalid-condition',
  'condition-not-boolean',
  'condition-too-costly',
  'invalid-template',
  'unknown-step-reference',
  'step-reference-not-upstream',
  'unknown-index',
  'unknown-tool',
  'unknown-operation',
  'invalid-parameters',
  'unknown-workflow',
  'sub-plan-recursion',
  'sub-plan-too-deep',
] as const;

/** What refuses a run at start (runs/check-run-start.ts), in the same shape. */
export const startDiagnosticCodes = ['tool-not-granted', 'no-chat-model'] as const;

export const diagnosticCodes = [...definitionDiagnosticCodes, ...startDiagnosticCodes] as const;

export type DiagnosticCode = (typeof diagnosticCodes)[number];

export interface Diagnostic {
  readonly code: DiagnosticCode;
  /** The caller's name of the step concerned, when there is one. */
  readonly step?: string;
  /** Zero-based index of the edge concerned in the submitted `edges` array. */
  readonly edge?: number;
  /** Caller-safe: names fields and steps, never echoes submitted values beyond names. */
  readonly message: string;
}

/** Collects diagnostics in the order the checks find them. */
export class DiagnosticList {
  readonly #items: Diagnostic[] = [];

  add(code: DiagnosticCode, message: string, where: { readonly step?: string; readonly edge?: number } = {}): void {
    this.#items.push({
      code,
      ...(where.step !== undefined ? { step: where.step } : {}),
      ...(where.edge !== undefined ? { edge: where.edge } : {}),
      message,
    });
  }

  get items(): readonly Diagnostic[] {
    return this.#items;
  }

  get empty(): boolean {
    return this.#items.length === 0;
  }
}
