import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseFrontmatter } from '../../src/core/parse/frontmatter';
import { FrontmatterWriteError, setExtensionBlock } from '../../src/core/parse/frontmatter-block';

const GSD_SUMMARY = `---
id: T01
parent: S01
milestone: M001
provides:
  - rule parser
key_files:
  - src/rule-pattern.ts   # the parser
key_decisions:
  - "Patterns are anchored only when the user writes ^ or $"
duration: 50m
verification_result: passed
completed_at: 2026-10-20T13:10:00Z
blocker_discovered: false
---

# T01: Parse and validate rule patterns

**Rule patterns compile once.**
`;

const extensionsOf = (text: string) => parseFrontmatter(text, 'f.md').data.extensions as Record<string, unknown> | undefined;

describe('writing our extensions block', () => {
  it('adds extensions.<hook> and keeps every other byte of a GSD-written file', () => {
    const out = setExtensionBlock(GSD_SUMMARY, 'review-loop', { activeReview: { taskId: 'T01', cycle: 1, status: 'pending_review' } });
    assert.deepEqual(extensionsOf(out), { 'review-loop': { activeReview: { taskId: 'T01', cycle: 1, status: 'pending_review' } } });
    const [before, after] = GSD_SUMMARY.split('blocker_discovered: false\n');
    assert.ok(out.startsWith(before + 'blocker_discovered: false\n'));
    assert.ok(out.endsWith('---' + after.slice(3)));
    assert.equal(setExtensionBlock(out, 'review-loop', undefined), GSD_SUMMARY);
  });

  it('keeps a CRLF file CRLF, byte for byte outside the block', () => {
    const crlf = GSD_SUMMARY.replace(/\n/g, '\r\n');
    const out = setExtensionBlock(crlf, 'review-loop', { cycle: 2 });
    assert.ok(!/[^\r]\n/.test(out), 'a bare LF was written into a CRLF file');
    assert.deepEqual(extensionsOf(out), { 'review-loop': { cycle: 2 } });
    assert.equal(setExtensionBlock(out, 'review-loop', undefined), crlf);
  });

  it('replaces only its own hook among others, and leaves theirs alone', () => {
    const text = '---\nid: T01\nextensions:\n  other-hook: { keep: "as written" }\n  review-loop:\n    cycle: 1\n# trailing comment\nz: 1\n---\nbody\n';
    const out = setExtensionBlock(text, 'review-loop', { cycle: 2, status: 'fixing' });
    assert.ok(out.includes('  other-hook: { keep: "as written" }\n'));
    assert.deepEqual(extensionsOf(out), { 'other-hook': { keep: 'as written' }, 'review-loop': { cycle: 2, status: 'fixing' } });
    assert.ok(out.endsWith('# trailing comment\nz: 1\n---\nbody\n'));
    const removed = setExtensionBlock(out, 'review-loop', undefined);
    assert.deepEqual(extensionsOf(removed), { 'other-hook': { keep: 'as written' } });
  });

  it('creates frontmatter in a file without it, and removes it again exactly', () => {
    const plain = '# T03: rule list\n\nList rules.\n';
    const out = setExtensionBlock(plain, 'review-loop', { cycle: 1 });
    assert.ok(out.endsWith(plain));
    assert.deepEqual(extensionsOf(out), { 'review-loop': { cycle: 1 } });
    assert.equal(setExtensionBlock(out, 'review-loop', undefined), plain);
  });

  it('fills an empty extensions key; refuses one that is not a block map rather than rewrite or drop its value', () => {
    assert.deepEqual(extensionsOf(setExtensionBlock('---\nextensions:\nid: T1\n---\n', 'h', [1, 'two'])), { h: [1, 'two'] });
    // Rewriting `{a: 1}` as a block would change another hook's bytes; a scalar or a list would be dropped.
    for (const ext of ['{a: 1}  # theirs', 'not-a-map', '[1, 2]']) {
      assert.throws(() => setExtensionBlock(`---\nextensions: ${ext}\n---\n`, 'h', { b: 2 }), /extensions is not a block mapping/);
    }
  });

  it('refuses to edit broken or half-written frontmatter, and non-plain values', () => {
    assert.throws(() => setExtensionBlock('---\nid: [T01\n---\n', 'h', 1), FrontmatterWriteError);
    assert.throws(() => setExtensionBlock('---\nid: T01\n', 'h', 1), FrontmatterWriteError);
    assert.throws(() => setExtensionBlock('---\n- a\n---\n', 'h', 1), FrontmatterWriteError);
    assert.throws(() => setExtensionBlock('---\nid: 1\nid: 2\n---\n', 'h', 1), FrontmatterWriteError);
    assert.throws(() => setExtensionBlock('---\n---\n', 'h', { when: new Date() }), FrontmatterWriteError);
    assert.throws(() => setExtensionBlock('---\n---\n', 'h', { n: NaN }), FrontmatterWriteError);
  });

  // (An empty frontmatter block is the one thing not restored: removing our last key drops the fences.)
  it('property: set then remove restores the file; set keeps every other key and the body', () => {
    const plainKey = fc.constantFrom('id', 'parent', 'key_files', 'note', 'x');
    const scalar = fc.oneof(fc.constantFrom('T01', '"quoted: yes"', "'single'", '2026-05-10T14:02:11Z', 'true', '12', '[a, b]', '{a: 1}'), fc.stringMatching(/^[a-z][a-z0-9 ]{0,10}$/));
    const fmLine = fc.tuple(plainKey, scalar, fc.boolean()).map(([k, v, comment]) => `${k}: ${v}${comment ? ' # note' : ''}`);
    const value = fc.jsonValue({ maxDepth: 3 }).filter((v) => v !== null && !(typeof v === 'number' && Object.is(v, -0)));
    fc.assert(
      fc.property(fc.uniqueArray(fmLine, { selector: (l) => l.split(':')[0], minLength: 1, maxLength: 5 }), fc.string({ maxLength: 80 }), value, fc.boolean(), (lines, body, v, crlf) => {
        const eol = crlf ? '\r\n' : '\n';
        const text = ['---', ...lines, '---', body.replace(/\r?\n/g, eol)].join(eol);
        const set = setExtensionBlock(text, 'review-loop', v);
        const parsed = parseFrontmatter(set, 'f.md');
        const original = parseFrontmatter(text, 'f.md');
        assert.deepEqual((parsed.data.extensions as Record<string, unknown>)['review-loop'], JSON.parse(JSON.stringify(v)));
        for (const [k, val] of Object.entries(original.data)) assert.deepEqual(parsed.data[k], val);
        assert.equal(parsed.body, original.body);
        assert.equal(setExtensionBlock(set, 'review-loop', undefined), text);
      }),
      { numRuns: 400 },
    );
  });
});
