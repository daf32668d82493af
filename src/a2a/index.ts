// The A2A surface (DESIGN §20): each live bundle handle as an Agent2Agent 1.0 agent of its owner. Only
// the composition root mounts it, and only when AppConfig:AI:A2A:Enabled is set.
export { registerA2a } from './register-a2a.js';
export { a2aPath } from './agent-card.js';
