// What a hook is handed is frozen all the way down: objects, arrays, and an array's own named properties.
import * as assert from 'node:assert/strict';
import { deepFreeze } from '../../src/core/model/deep-freeze';

describe('deepFreeze', () => {
  it('freezes nested objects, arrays and the named properties of arrays', () => {
    const list: unknown[] & { meta?: { n: number } } = [{ a: { b: 1 } }, [2, { c: 3 }]];
    list.meta = { n: 1 };
    const value = { list, nested: { deeper: { x: [1] } } };
    deepFreeze(value);
    for (const part of [value, value.list, value.list[0], (value.list[0] as { a: object }).a, value.list[1], (value.list[1] as unknown[])[1], list.meta, value.nested.deeper, value.nested.deeper.x]) {
      assert.ok(Object.isFrozen(part), JSON.stringify(part));
    }
  });

  it('leaves what was frozen before as it is, and returns its argument', () => {
    const inner = Object.freeze({ open: { y: 1 } });
    const value = { inner };
    assert.equal(deepFreeze(value), value);
    // Already frozen: not walked again (the panel's shared parts are frozen once).
    assert.equal(Object.isFrozen(inner.open), false);
  });
});
