// The attachment memory budget: holders beyond it wait, first come first served, until bytes are
// given back; one larger than the whole budget runs alone; giving back twice counts once.
import { describe, expect, it } from 'vitest';
import { ByteBudget } from '../../src/messaging/services/byte-budget.js';

describe('ByteBudget', () => {
  it('lets holders in while they fit, then in arrival order as bytes come back', async () => {
    const budget = new ByteBudget(100);
    const first = await budget.take(60);
    const order: string[] = [];
    const second = budget.take(60).then((release) => (order.push('second'), release));
    const third = budget.take(10).then((release) => (order.push('third'), release));
    await Promise.resolve();
    expect(order).toEqual([]); // the small one does not overtake the large one waiting before it
    expect(budget.inUse).toBe(60);
    first();
    first();
    const releaseSecond = await second;
    const releaseThird = await third;
    expect(order).toEqual(['second', 'third']);
    expect(budget.inUse).toBe(70);
    releaseSecond();
    releaseThird();
    expect(budget.inUse).toBe(0);
  });

  it('runs a holder larger than the whole budget alone rather than never', async () => {
    const budget = new ByteBudget(100);
    const huge = await budget.take(1_000);
    expect(budget.inUse).toBe(100);
    let small = false;
    const waiting = budget.take(1).then((release) => ((small = true), release));
    await Promise.resolve();
    expect(small).toBe(false);
    huge();
    (await waiting)();
    expect(small).toBe(true);
    expect(budget.inUse).toBe(0);
  });
});
