// Properties of the finding placement (issue 26): a place never leaves the project whatever the
// review says, lines follow any edit in order, and ticking an issue changes that one line only.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { locationInText, parseFindingLocation } from '../../src/core/reviews/finding-locations';
import { lineAfterEdit, lineAfterEdits, lineEditBetween, type LineEdit } from '../../src/core/reviews/line-tracking';
import { IssueMovedError, withIssueChecked } from '../../src/core/reviews/issue-checkbox';

const pathish = fc.array(fc.constantFrom('a', 'b', '.', '..', '/', '\\', ':', '1', '7', '#', 'L', '-', ' ', 'é', 'C', '`', 'x.ts'), { maxLength: 30 }).map((p) => p.join(''));

describe('finding places (properties)', () => {
  it('never answers a place outside the project, never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), pathish), (raw) => {
        for (const loc of [parseFindingLocation(raw), locationInText(raw)]) {
          if (!loc) continue;
          assert.ok(!loc.path.startsWith('/') && !loc.path.split('/').includes('..') && !loc.path.includes('\\'), loc.path);
          assert.ok(!/\s/.test(loc.path));
          assert.ok(loc.line === null || (Number.isSafeInteger(loc.line) && loc.line >= 1));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('reads back any relative path and line it is given', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.stringMatching(/^[a-z]{1,4}$/), fc.integer({ min: 1, max: 1e6 }), (dirs, ext, line) => {
        const p = `${dirs.join('/')}.${ext}`;
        assert.deepEqual(parseFindingLocation(`${p}:${line}`), { path: p, line });
        assert.deepEqual(locationInText(`see \`${p}:${line}\` here`), { path: p, line });
      }),
    );
  });
});

const lines = fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 12 });

describe('lines following edits (properties)', () => {
  it('a line the edit did not touch keeps its text', () => {
    fc.assert(
      fc.property(lines, lines, (before, after) => {
        const edit = lineEditBetween(before, after);
        if (!edit) return assert.deepEqual(before, after);
        for (let l = 0; l < before.length; l++) {
          if (l >= edit.startLine && l <= edit.endLine) continue;
          assert.equal(after[lineAfterEdit(l, edit)], before[l], `line ${l}`);
        }
      }),
    );
  });

  it('keeps the order of lines and stays inside the new text', () => {
    const edit = fc.record({ startLine: fc.nat(20), span: fc.integer({ min: -1, max: 5 }), newLineCount: fc.nat(6) }).map(({ startLine, span, newLineCount }): LineEdit => ({ startLine, endLine: startLine + span, newLineCount }));
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), fc.nat(40), fc.nat(40), (edits, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        assert.ok(lineAfterEdits(lo, edits) <= lineAfterEdits(hi, edits));
        assert.ok(lineAfterEdits(lo, edits) >= 0);
        assert.equal(lineAfterEdits(lo, []), lo);
      }),
    );
  });
});

describe('ticking an issue (properties)', () => {
  it('changes at most the checkbox character of that one line, and does tick the line asked for', () => {
    // What happened, counted: an implementation that always throws, or returns the text unchanged,
    // would pass the per-case checks alone.
    let ticked = 0;
    let moved = 0;
    const line = fc.oneof(fc.constantFrom('- [ ] **major** `a.ts:1` fix it', '- [x] **minor** done', '* [X] nit', '  - [ ] nested one'), fc.string({ maxLength: 30 }));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), fc.constantFrom('\n', '\r\n'), fc.nat(12), fc.boolean(), (ls, eol, at, checked) => {
        const text = ls.join(eol) + eol;
        const target = ls[at % ls.length];
        const m = /\[[ xX]\]\s+(.*)$/.exec(target);
        try {
          const out = withIssueChecked(text, { line: (at % ls.length) + 1, text: m?.[1] ?? 'nothing of the sort' }, checked);
          assert.equal(out.length, text.length);
          let diffs = 0;
          for (let i = 0; i < text.length; i++) if (out[i] !== text[i]) diffs++;
          assert.ok(diffs <= 1);
          if (m && (/\[ \]/.test(target) === checked)) {
            // An unticked line asked to be ticked (or the other way): that one character changed.
            assert.equal(diffs, 1, `${JSON.stringify(target)} → ${checked}`);
            ticked++;
          }
        } catch (error) {
          assert.ok(error instanceof IssueMovedError);
          moved++;
        }
      }),
      { numRuns: 2000 },
    );
    assert.ok(ticked > 200, `only ${ticked} of 2000 cases ticked or unticked a line`);
    assert.ok(moved > 0, 'no case was refused as moved');
  });
});
