// The CLI reads ordinary arguments without node:util's parseArgs: it must answer exactly as parseArgs
// does, or step aside. parseArgs itself is the oracle.
import * as assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { OPTIONS } from '../../src/cli/cli-options';
import { plainArgs } from '../../src/cli/plain-args';

const token = fc.oneof(
  fc.constantFrom(...Object.keys(OPTIONS).map((n) => `--${n}`)),
  fc.constantFrom('next', 'state', 'hook', 'complete', 'install-hooks', '/w/proj', '.', '', ' ', 'constructor', '__proto__'),
  fc.constantFrom('--', '-', '-h', '-x', '--nope', '--root=/w', '--json=true', '--constructor', '--__proto__', '---', '--Root', '--toString'),
  fc.string({ maxLength: 6 }),
);
const argv = fc.array(token, { maxLength: 8 });

function oracle(args: string[], strict: boolean): unknown {
  try {
    const r = parseArgs({ args, allowPositionals: true, strict, options: OPTIONS });
    return { values: { ...r.values }, positionals: r.positionals };
  } catch (error) {
    return { threw: (error as { code?: string }).code };
  }
}

describe('plain CLI arguments (fast-check against node:util parseArgs)', () => {
  it('answers as parseArgs does (strict and lenient) whenever it answers', () => {
    let answered = 0;
    fc.assert(fc.property(argv, (args) => {
      const plain = plainArgs(args, OPTIONS);
      if (!plain) return;
      answered++;
      const mine = { values: { ...plain.values }, positionals: plain.positionals };
      assert.deepStrictEqual(mine, oracle(args, true), `args ${JSON.stringify(args)}`);
      assert.deepStrictEqual(mine, oracle(args, false), `args ${JSON.stringify(args)} (lenient)`);
    }), { numRuns: 3000 });
    // Stepping aside every time would agree vacuously.
    assert.ok(answered > 500, `answered only ${answered} of 3000`);
  });

  it('answers the calls agents and the extension make, with parseArgs\' defaults', () => {
    const got = plainArgs(['next', '--json', '--root', '/w/proj'], OPTIONS);
    assert.deepStrictEqual({ ...got!.values }, { json: true, root: '/w/proj', full: false, apply: false, untrusted: false, user: false, 'dry-run': false, done: false, guard: false, help: false });
    assert.deepStrictEqual(got!.positionals, ['next']);
    assert.ok(plainArgs(['hook', '--event', 'Stop', '--host', 'claude'], OPTIONS));
  });

  it('steps aside for what only parseArgs words: unknown options, `=`, `--`, short options, a missing value', () => {
    for (const args of [['next', '--nope'], ['next', '--root=/w'], ['--', 'next'], ['-h'], ['next', '--root'], ['next', '--root', '--json'], ['--constructor']]) {
      assert.equal(plainArgs(args, OPTIONS), null, JSON.stringify(args));
    }
  });
});
