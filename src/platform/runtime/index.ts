export { keepTickShape, tickShapeHeld } from './tick-shape.js';
