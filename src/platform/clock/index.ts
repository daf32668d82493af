export { systemClock, ManualClock, randomIds, sequentialIds, type Clock, type IdGenerator } from './clock.js';
