// The size bounds of a run (AppConfig:AI:Workflows): its expanded step count, rendered templates,
// each step's kept output and the outputs one run keeps in total. Past a bound, the run is refused at
// start when that is already certain, else the step fails (texts in step-failures.ts).
export interface StepLimits {
  /** Steps of a run's whole expansion, sub-plans included (Workflows:MaxSteps). */
  readonly maxSteps: number;
  /** UTF-8 bytes of one rendered template string, or of a ToolUse step's rendered parameters. */
  readonly maxRenderedTemplateBytes: number;
  /** Serialized bytes of one step's output. */
  readonly maxStepOutputBytes: number;
  /** Serialized bytes of every output one run keeps (sub-plan outputs count again, as the poll body repeats them). */
  readonly maxRunOutputBytes: number;
}
