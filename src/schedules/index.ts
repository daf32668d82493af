// Schedules' public surface (DESIGN.md §14): the registration app.ts calls, the targets port it fills
// with each family's start, and the tick waiters (ManualTicks for tests).
export { registerSchedules, type ScheduleFeature, type ScheduleWiring } from './register-schedules.js';
export type { ScheduleTargets } from './schedule-targets.js';
export { realTickWaiter, type TickWaiter } from './tick-waiter.js';
export { ManualTicks } from './manual-ticks.js';
