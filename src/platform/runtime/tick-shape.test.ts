import { describe, expect, it } from 'vitest';
import { keepTickShape, tickShapeHeld } from './tick-shape.js';

describe('keepTickShape', () => {
  it('holds the entry its own nextTick makes, once, and leaves ticks running', async () => {
    keepTickShape();
    expect(tickShapeHeld()).toBe(true);
    keepTickShape();
    expect(tickShapeHeld()).toBe(true);
    // The hook is off again and the queue works: a tick queued now runs.
    const ran = await new Promise<boolean>((resolve) => process.nextTick(() => resolve(true)));
    expect(ran).toBe(true);
  });
});
