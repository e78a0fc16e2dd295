import * as assert from 'node:assert/strict';
import { Owner } from '../../src/vscode/lifecycle/owner';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Owner: one lifecycle for disposables and timers', () => {
  it('a timer started before dispose never runs after it; one started after never starts', async () => {
    const owner = new Owner();
    const ran: string[] = [];
    owner.after(5, () => ran.push('before'));
    owner.dispose();
    owner.after(0, () => ran.push('after'));
    await tick(20);
    assert.deepEqual(ran, []);
  });

  it('disposes what it owns once, last first, past a dispose that throws; owning after dispose disposes at once', () => {
    const owner = new Owner();
    const order: string[] = [];
    owner.own({ dispose: () => order.push('a') });
    owner.own({ dispose: () => { throw new Error('gone'); } });
    owner.own({ dispose: () => order.push('c') });
    owner.dispose();
    owner.dispose();
    assert.deepEqual(order, ['c', 'a']);
    owner.own({ dispose: () => order.push('late') });
    assert.deepEqual(order, ['c', 'a', 'late']);
  });

  it('a cancelled timer does not run; the others still do', async () => {
    const owner = new Owner();
    const ran: number[] = [];
    const cancel = owner.after(1, () => ran.push(1));
    owner.after(1, () => ran.push(2));
    cancel();
    await tick(15);
    assert.deepEqual(ran, [2]);
    owner.dispose();
  });
});
