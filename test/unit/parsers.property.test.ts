// Property tests: no parser throws on any text, and well-formed GSD lines round-trip.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCodeReview } from '../../src/core/parse/code-review';
import { parseContinueFile } from '../../src/core/parse/continue-file';
import { parseFrontmatter } from '../../src/core/parse/frontmatter';
import { parsePreferences } from '../../src/core/parse/preferences';
import { parseReplan } from '../../src/core/parse/replan';
import { parseRoadmap } from '../../src/core/parse/roadmap';
import { parseSlicePlan } from '../../src/core/parse/slice-plan';
import { parseTaskSummary, parseTaskSummaryForState } from '../../src/core/parse/task-summary';

const parsers: Array<[string, (text: string) => unknown]> = [
  ['frontmatter', (t) => parseFrontmatter(t, 'f.md')],
  ['roadmap', (t) => parseRoadmap(t, 1, 'r.md')],
  ['slice plan', (t) => parseSlicePlan(t, 1, 'p.md')],
  ['task summary', (t) => parseTaskSummary(t, 's.md')],
  ['task summary (the full derive)', (t) => parseTaskSummaryForState(t, 's.md')],
  ['code review', (t) => parseCodeReview(t, 'c.md')],
  ['replan', (t) => parseReplan(t, 'r.md')],
  ['continue', (t) => parseContinueFile(t, 'c.md')],
  ['preferences', (t) => parsePreferences(t, 'p.md')],
];

/** Lines that look like GSD markdown, so the generator reaches the parsers' interesting branches. */
const gsdLine = fc.oneof(
  fc.constantFrom('---', '---\r', '', '## Known Issues', '## Issues', '## Tasks', '## Slices', 'Pending actions:', '# T01: Title',
    '- [ ] **S01: A** `risk:high` `depends:[S01,S02]`', '  > After this: demo', '- [x] **T01: B** `est:30m`', '  - Files: `a.ts`, `b.ts`',
    '### T02: Heading task', '- [ ] **major** `src/a.ts:1` issue', '**Blocker Task:** T02', 'cycle: 2', 'verdict: approved', 'gsd_hooks:',
    '  enabled:', '    - name: x', 'completed_at: 2026-05-10T14:02:11Z', 'key: [unclosed', '```', '\u0000', '- action', '* action'),
  fc.string({ maxLength: 60 }),
);
const gsdText = fc.array(gsdLine, { maxLength: 40 }).map((lines) => lines.join('\n'));

describe('parsers never throw (fast-check)', () => {
  for (const [name, parse] of parsers) {
    it(`${name}: arbitrary unicode text`, () => {
      fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => { parse(text); }), { numRuns: 300 });
    });
    it(`${name}: GSD-shaped text`, () => {
      fc.assert(fc.property(gsdText, (text) => { parse(text); }), { numRuns: 500 });
    });
  }
});

describe('parsers round-trip well-formed lines (fast-check)', () => {
  const title = fc.string({ minLength: 1, maxLength: 30 }).map((s) => s.replace(/[*`\r\n[\]]/g, 'x').trim()).filter((s) => s.length > 0);
  const sliceArb = fc.record({
    n: fc.integer({ min: 1, max: 99 }),
    title,
    done: fc.boolean(),
    risk: fc.constantFrom('low', 'medium', 'high'),
    depends: fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { maxLength: 4 }),
  });

  it('roadmap slice lines', () => {
    fc.assert(fc.property(fc.uniqueArray(sliceArb, { selector: (s) => s.n, maxLength: 8 }), fc.boolean(), (slices, useCrlf) => {
      const id = (n: number) => `S${String(n).padStart(2, '0')}`;
      const text = ['# M001: T', '', '## Slices', '', ...slices.flatMap((s) => [
        `- [${s.done ? 'x' : ' '}] **${id(s.n)}: ${s.title}** \`risk:${s.risk}\` \`depends:[${s.depends.map(id).join(', ')}]\``,
        '  > After this: it works',
      ])].join(useCrlf ? '\r\n' : '\n');
      const parsed = parseRoadmap(text, 1, 'r.md');
      assert.deepEqual(parsed.slices.map((s) => [s.id, s.title, s.done, s.risk, s.depends]),
        slices.map((s) => [id(s.n), s.title, s.done, s.risk, s.depends.map(id)]));
    }), { numRuns: 200 });
  });

  it('pending actions keep their text and line numbers', () => {
    const action = fc.string({ minLength: 1, maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' ').trim()).filter((s) => s.length > 0 && !/^(none\.?|n\/a)$/i.test(s) && !/^\[[ xX]\]\s/.test(s));
    fc.assert(fc.property(fc.array(action, { minLength: 1, maxLength: 6 }), fc.nat(3), (actions, proseLines) => {
      const prose = Array.from({ length: proseLines }, (_, i) => `Prose line ${i}.`);
      const lines = ['# T01: x', '', '## Known Issues', '', ...prose, 'Pending actions:', ...actions.map((a) => `- ${a}`), '', '## Files Created/Modified'];
      const got = parseTaskSummary(lines.join('\n'), 's.md').pendingActions;
      assert.deepEqual(got.map((a) => a.text), actions);
      for (const a of got) assert.equal(lines[a.line - 1], `- ${a.text}`);
    }), { numRuns: 200 });
  });
});

describe('the full derive reads a summary as parseTaskSummary does (fast-check)', () => {
  const summaryLine = fc.oneof(
    fc.constantFrom('---', 'id: t01', 'parent: S01', 'verification_result: passed', 'verification_result: flaky', 'completed_at: 2026-05-10T14:02:11Z',
      'completed_at: yesterday', 'blocker_discovered: true', 'duration: [unclosed', 'key_files:', '  - a.ts', '# T01: Title', '**Did the thing.**',
      '## Known Issues', 'Pending actions:', '- Measure it', '- [x] done', '- None.', '```', ''),
    fc.string({ maxLength: 40 }),
  );
  it('same values the state uses, same diagnostics', () => {
    fc.assert(fc.property(fc.array(summaryLine, { maxLength: 30 }), (lines) => {
      const text = lines.join('\n');
      const full = parseTaskSummary(text, 's.md');
      const { id, parent, oneLiner, verificationResult, completedAt, blockerDiscovered, pendingActions, diagnostics } = full;
      assert.deepEqual(parseTaskSummaryForState(text, 's.md'), { id, parent, oneLiner, verificationResult, completedAt, blockerDiscovered, pendingActions, diagnostics });
    }), { numRuns: 500 });
  });
});
