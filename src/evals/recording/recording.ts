// A bundle run as an eval case keeps it (DESIGN §19 "A run becomes a case"): every model answer and
// every tool call with its result, in order — steps numbered from 1 — redacted as the run's frames
// were. Plain data: it is stored in an own dataset's version and shown by GET as it was PUT.
export interface RecordedToolCall {
  readonly tool: string;
  readonly operation: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** One model answer: its text (maybe empty) and the tool calls it asked for, in order. */
export interface RecordedModelStep {
  readonly model: { readonly text: string; readonly toolCalls: readonly RecordedToolCall[] };
}

/** One tool call and what the model was told of it (`isError`: a denial, refusal or failure). */
export interface RecordedToolStep extends RecordedToolCall {
  readonly result: string;
  readonly isError: boolean;
}

export type RecordingStep = RecordedModelStep | RecordedToolStep;

export interface Recording {
  readonly steps: readonly RecordingStep[];
}

export function isModelStep(step: RecordingStep): step is RecordedModelStep {
  return 'model' in step;
}

/** How a run answers a recorded case (StartEvalRunRequest.replay). */
export type ReplayMode = 'none' | 'tools' | 'all';

/** The case errs with this when the conversation leaves the recording. */
export function replayDiverged(step: number): string {
  return `Replay diverged at step ${step}.`;
}

/** What a tool call that no recorded call matches is told under `replay: "tools"`. */
export const NOT_IN_RECORDING = 'Not in the recording.';
