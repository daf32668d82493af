export { systemClock, ManualClock, randomIds, sequentialIds, type Clock, type IdGenerator } from './clock.js';
export { isoInstant } from './iso-instant.js';
