// The fast path for GSD's flat frontmatter must mean exactly what js-yaml means, or step aside.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as jsYaml from 'js-yaml';
import { isSafePlain, parseGsdYamlSubset } from '../../src/core/parse/gsd-yaml-subset';

const key = fc.constantFrom('id', 'parent', 'completed_at', 'blocker_discovered', 'key_files', 'duration', 'x-y', 'a_b', '__proto__', 'Verdict');
const scalarText = fc.oneof(
  fc.constantFrom('T01', 'true', 'False', 'null', '~', '12', '-3', '0x1F', '1_000', '.5', '.inf', '2026-05-10T14:02:11Z', '35m', "'quoted'", '"dq"',
    '"esc\\"aped"', "'it''s'", '[a, b]', '{a: 1}', 'a: b', 'x # comment', 'trailing:', '&anchor', '*alias', '!tag x', '|', '>', '- item', '', ' spaced '),
  fc.string({ maxLength: 12 }),
);
const line = fc.oneof(
  fc.tuple(key, scalarText).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(key).map(([k]) => `${k}:`),
  scalarText.map((v) => `  - ${v}`),
  scalarText.map((v) => `- ${v}`),
  scalarText.map((v) => `    - ${v}`),
  fc.constantFrom('', '# comment', '  nested: value', '\t- tab', 'key_files:\r'),
);
const doc = fc.array(line, { maxLength: 10 }).map((ls) => ls.join('\n'));

describe('GSD YAML subset fast path (fast-check against js-yaml)', () => {
  it('agrees with js-yaml whenever it answers, and steps aside when js-yaml fails', () => {
    // A fast path that always stepped aside would agree vacuously: count what it answered.
    let answered = 0;
    let asideOnFailure = 0;
    fc.assert(fc.property(doc, (yaml) => {
      const fast = parseGsdYamlSubset(yaml);
      // Counted only with a key: an empty document tells nothing about the fast path.
      if (fast !== null && Object.keys(fast).length > 0) answered++;
      let slow: unknown;
      let failed = false;
      try {
        slow = jsYaml.load(yaml, { schema: jsYaml.CORE_SCHEMA, json: true }) ?? {};
      } catch {
        failed = true;
      }
      if (fast === null) {
        if (failed) asideOnFailure++;
        return;
      }
      assert.equal(failed, false, `fast path accepted YAML that js-yaml rejects:\n${yaml}`);
      assert.deepEqual(fast, slow);
    }), { numRuns: 3000 });
    console.log(`      fast path answered ${answered} of 3000 documents with keys; stepped aside on ${asideOnFailure} that js-yaml rejects`);
    assert.ok(answered >= 80, `the fast path answered only ${answered} of 3000 documents with keys`);
    assert.ok(asideOnFailure > 0, 'no document js-yaml rejects was generated: the stepping aside was never tried');
  });

  it('answers for the frontmatter GSD writes', () => {
    const yaml = 'id: T01\nparent: S01\nkey_files:\n  - src/a.ts\n  - src/b.ts\nduration: 35m\ncompleted_at: 2026-05-10T14:02:11Z\nblocker_discovered: false\n';
    assert.deepEqual(parseGsdYamlSubset(yaml), {
      id: 'T01', parent: 'S01', key_files: ['src/a.ts', 'src/b.ts'], duration: '35m', completed_at: '2026-05-10T14:02:11Z', blocker_discovered: false,
    });
  });
});

describe('plain scalar check by hand (fast-check against its regex definition)', () => {
  const SAFE_PLAIN = /^[^-?:,[\]{}#&*!|>'"%@`\s][^\t]*$/;
  const reference = (raw: string) => SAFE_PLAIN.test(raw) && !raw.includes(': ') && !raw.includes(' #') && !raw.endsWith(':');
  const piece = fc.constantFrom(':', ' ', '#', '\t', '-', '?', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`',
    'a', 'T01', '0', '.', '\n', '\r', '\v', '\f', '\u0000', '\u0085', '\u00a0', '\u2028', '\u3000', '\ufeff', 'é', '✅', '\ud83d');
  it('says yes exactly when the regex and the three searches do', () => {
    fc.assert(fc.property(fc.oneof(fc.array(piece, { maxLength: 8 }).map((p) => p.join('')), fc.string({ maxLength: 10 }), fc.string({ unit: 'grapheme', maxLength: 6 })), (raw) => {
      assert.equal(isSafePlain(raw), reference(raw), JSON.stringify(raw));
    }), { numRuns: 20000 });
  });
});
