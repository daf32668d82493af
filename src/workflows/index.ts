// The workflow family's public surface: registration, the service and the shapes other features
// (evals) may use. Other features import from here only.
export { registerWorkflows, MAX_DEFINITION_BYTES, type WorkflowFeature } from './register-workflows.js';
export { createWorkflowService, type WorkflowService, type WorkflowServiceDependencies } from './service.js';
export type { Diagnostic, DiagnosticCode } from './definition/diagnostic.js';
export { definitionDiagnosticCodes, diagnosticCodes, startDiagnosticCodes } from './definition/diagnostic.js';
export type { StepType, StoredWorkflow } from './definition/workflow-definition.js';
export { stepTypes } from './definition/workflow-definition.js';
export type { RunStatus, StepStatus } from './runs/run-status.js';
export type { RunProjection } from './runs/run-projection.js';
export type { ProgressFrame } from './events.js';
export { realTimers, type Timers } from './engine/timers.js';
export { ManualTimers } from './engine/manual-timers.js';
