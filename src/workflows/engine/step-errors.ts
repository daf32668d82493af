// Caller-safe errors the engine itself gives steps; runners give their own, equally fixed, texts.
export const STEP_CANCELLED = 'The run was cancelled.';
export const STEP_STOPPED = 'Stopped because another step failed.';
export const STEP_UNEXPECTED = 'The step failed unexpectedly.';
