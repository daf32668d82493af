export { startSweeper, type StartSweeperOptions, type Sweeper } from './start-sweeper.js';
