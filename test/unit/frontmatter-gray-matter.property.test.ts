// The hot derive path reads frontmatter with its own scanner (fences by hand, GSD's flat subset by
// hand, js-yaml's core schema otherwise, the wanted keys line by line). gray-matter with the YAML
// 1.2 engine (src/core/parse/gray-matter-frontmatter.ts) is the reference: on GSD-shaped frontmatter both
// give the same keys, values and body.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import matter from 'gray-matter';
import { parseFrontmatter } from '../../src/core/parse/frontmatter';
import { readFrontmatter, writeWithFrontmatter } from '../../src/core/parse/gray-matter-frontmatter';

// Values as GSD writes them: ids, ISO times, durations, booleans, counts, words, paths, and empty.
const scalar = fc.constantFrom(
  'T01', 'S02', 'M002-k7q2xz', '2026-05-10T14:02:11Z', '2026-10-21T09:42:00.000Z', '1h10m', '45m', '1:10', '1:10:00',
  'passed', 'mixed', 'true', 'false', 'yes', 'no', 'on', '12', '0', '007', '1e3', '0x1F', '3.5', '~', 'null',
  'src/rules-file.ts', 'rule add / remove commands', "'quoted'", '"double quoted"', 'a # comment', '',
);
const key = fc.constantFrom('id', 'parent', 'milestone', 'duration', 'verification_result', 'completed_at', 'blocker_discovered', 'saved_at', 'status', 'cycle', 'verdict', 'task');
const listKey = fc.constantFrom('key_files', 'key_decisions', 'provides', 'depends_on');
const entry = fc.oneof(
  fc.tuple(key, scalar).map(([k, v]) => ({ k, line: `${k}: ${v}`.trimEnd() })),
  fc.tuple(listKey, fc.array(scalar.filter((v) => v !== ''), { minLength: 1, maxLength: 4 })).map(([k, vs]) => ({ k, line: `${k}:\n${vs.map((v) => `  - ${v}`).join('\n')}` })),
  fc.tuple(listKey, fc.array(fc.constantFrom('T01', 'S01', 'a.ts'), { maxLength: 3 })).map(([k, vs]) => ({ k, line: `${k}: [${vs.join(', ')}]` })),
);
const block = fc.uniqueArray(entry, { selector: (e) => e.k, maxLength: 9 });
const eol = fc.constantFrom('\n', '\r\n');
const body = fc.constantFrom('', '\n# T01: Title\n\n**One line.**\n', '# Heading\n---\nnot a fence for us\n', 'text without heading');
const file = fc.tuple(block, eol, body).map(([entries, nl, b]) => `---${nl}${entries.map((e) => e.line).join('\n').replace(/\n/g, nl)}${entries.length ? nl : ''}---${nl}${b.replace(/\n/g, nl)}`);

describe('frontmatter: the hand scanner agrees with gray-matter (YAML 1.2 engine)', () => {
  it('same data and body on GSD-shaped files, and the wanted keys read by line agree too', () => {
    const wanted = ['id', 'parent', 'milestone', 'duration', 'verification_result', 'completed_at', 'blocker_discovered'];
    fc.assert(fc.property(file, (text) => {
      const reference = readFrontmatter(text, 'T01-SUMMARY.md');
      const hand = parseFrontmatter(text, 'T01-SUMMARY.md');
      assert.deepEqual(reference.diagnostics, [], JSON.stringify(text));
      assert.deepEqual(hand.data, reference.data, JSON.stringify(text));
      assert.equal(hand.body, reference.body, JSON.stringify(text));
      assert.equal(hand.bodyStartLine, reference.bodyStartLine, JSON.stringify(text));
      const picked = parseFrontmatter(text, 'T01-SUMMARY.md', { onlyKeys: wanted });
      for (const k of wanted) assert.deepEqual(picked.data[k], reference.data[k], `${k} in ${JSON.stringify(text)}`);
    }), { numRuns: 1500 });
  });

  it('keeps GSD values as written where gray-matter\'s default engine (YAML 1.1) does not', () => {
    const text = '---\ncompleted_at: 2026-05-10T14:02:11Z\nduration: 1:10\nblocker_discovered: false\n---\n# T01\n';
    // The facts behind the engine choice (docs/architecture.md, "Reading GSD's files"), seen on gray-matter's own default.
    const yaml11 = matter(text, { language: 'yaml' }).data;
    assert.ok(yaml11.completed_at instanceof Date);
    assert.equal(yaml11.duration, 70);
    assert.deepEqual(readFrontmatter(text, 'f').data, { completed_at: '2026-05-10T14:02:11Z', duration: '1:10', blocker_discovered: false });
  });

  it('refuses frontmatter in another language (gray-matter would evaluate ---js as code) and bounds aliases', () => {
    const js = readFrontmatter('---js\n{ id: (() => { throw new Error("ran") })() }\n---\nbody\n', 'f');
    assert.deepEqual([js.present, js.data], [false, {}]);
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    const bomb = readFrontmatter(`---\n${laughs.join('\n')}\n---\n`, 'f');
    assert.deepEqual(bomb.data, {});
    assert.equal(bomb.diagnostics.length, 1);
    assert.match(bomb.diagnostics[0].message, /frontmatter is not valid YAML: .*alias/i);
  });

  it('writes a new file that both readers read back as written (a continue file)', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.tuple(key, scalar.filter((v) => v !== '')), { selector: (e) => e[0], maxLength: 6 }), (pairs) => {
      const data = Object.fromEntries(pairs);
      const text = writeWithFrontmatter('\n# S01: continue after compaction\n', data);
      assert.deepEqual(readFrontmatter(text, 'f').data, data, text);
      assert.deepEqual(parseFrontmatter(text, 'f').data, data, text);
      assert.equal(parseFrontmatter(text, 'f').body, '\n# S01: continue after compaction\n');
    }), { numRuns: 500 });
  });
});
