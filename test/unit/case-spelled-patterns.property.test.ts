// The patterns that match GSD's names and headings in any case spell each letter in both cases
// instead of using the `i` flag (V8 compiles `i` patterns several times slower: docs/speed.md). The
// `i` pattern each one replaced is the oracle here: on seeds and on their mutations (case flips,
// Unicode letters that change case into ASCII such as the Kelvin sign and the long s, insertions,
// deletions) both must give the same match, groups and index.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { MILESTONE_FOLDER, SLICE_FOLDER_ID, TASK_FILE_ID, TASK_ID_START } from '../../src/core/files/gsd-layout';
import { HOOK_NAME } from '../../src/core/hooks/engine/hook-registry';
import { UNIT_ID } from '../../src/core/hooks/engine/unit-files';
import { LIST_START, NOTHING_PENDING } from '../../src/core/parse/known-issues';
import { BLOCKER_LINE, TASK_ID } from '../../src/core/parse/replan';
import { DEMO, DEPENDS_TAG, MILESTONE_ID_PREFIX, RISK_TAG } from '../../src/core/parse/roadmap';
import { DETAIL, ESTIMATE, SLICE_ID_PREFIX } from '../../src/core/parse/slice-plan';
import { PENDING_ACTIONS, TASK_ID_PREFIX } from '../../src/core/parse/task-summary';
import { BODY_VERDICT, FAILURE_SIGNALS, FRONTMATTER_VERDICT } from '../../src/core/state/derive-milestone';
import { SUMMARY_SUFFIX, TASK_SUMMARY_FILE } from '../../src/core/state/derive-slice';
import { REVIEW_FILE } from '../../src/core/state/review-history';

interface Case {
  name: string;
  actual: RegExp;
  oracle: RegExp;
  seeds: string[];
}

const CASES: Case[] = [
  { name: 'MILESTONE_FOLDER', actual: MILESTONE_FOLDER, oracle: /^M(\d+)(?:-([a-z0-9]{6}))?(?:-.*)?$/i, seeds: ['M001', 'm001-abc123', 'M001-FLIGHT-SIM', 'M12-ABCDEF'] },
  { name: 'TASK_FILE_ID', actual: TASK_FILE_ID, oracle: /^(T\d+)-/i, seeds: ['T01-PLAN.md', 't02-x'] },
  { name: 'TASK_ID_START', actual: TASK_ID_START, oracle: /^(T\d+)/i, seeds: ['T01', 't9-SUMMARY.md'] },
  { name: 'SLICE_FOLDER_ID', actual: SLICE_FOLDER_ID, oracle: /^(S\d+)(?:-|$)/i, seeds: ['S01', 's01-name', 'S1x'] },
  { name: 'HOOK_NAME', actual: HOOK_NAME, oracle: /^[a-z0-9][a-z0-9._-]*$/i, seeds: ['review-loop', 'My_Hook.2', '-x', 'Zz9'] },
  { name: 'UNIT_ID', actual: UNIT_ID, oracle: /^(M\d+(?:-[a-z0-9]{6})?)(?:\/(S\d+)(?:\/(T\d+))?)?$/i, seeds: ['M001/S01/T01', 'm001-abc123/s2', 'M1', 'M001-AbCdEf/S01'] },
  { name: 'LIST_START', actual: LIST_START, oracle: /^\s*(?:\*\*|__)?Pending actions:?(?:\*\*|__)?:?\s*$/i, seeds: ['Pending actions:', '**Pending Actions:**', '__pending actions__:', '  PENDING ACTIONS  '] },
  { name: 'NOTHING_PENDING', actual: NOTHING_PENDING, oracle: /^(none\.?|n\/a)$/i, seeds: ['None.', 'n/a', 'NONE', 'N/A'] },
  { name: 'BLOCKER_LINE', actual: BLOCKER_LINE, oracle: /^\s*(?:[-*]\s+)?\*{0,2}Blocker Task:?\*{0,2}:?\s*`?(T\d+)`?/i, seeds: ['**Blocker Task:** T02', '- blocker task: `t03`', 'BLOCKER TASK T1'] },
  { name: 'TASK_ID', actual: TASK_ID, oracle: /^T\d+$/i, seeds: ['T01', 't1'] },
  { name: 'DEPENDS_TAG', actual: DEPENDS_TAG, oracle: /depends:\s*(\[[^\]]*\]|[^`\s]*)/i, seeds: ['`depends:[S01,S02]`', 'Depends: S01', 'DEPENDS:[]'] },
  { name: 'RISK_TAG', actual: RISK_TAG, oracle: /risk:\s*(\[[^\]]*\]|[^`\s]*)/i, seeds: ['`risk:high`', 'Risk: [a]'] },
  { name: 'DEMO', actual: DEMO, oracle: /^\s+>\s*After this:(.*)$/i, seeds: ['  > After this: it works', '\t>after THIS:x'] },
  { name: 'MILESTONE_ID_PREFIX', actual: MILESTONE_ID_PREFIX, oracle: /^M\d+(?:-[a-z0-9]{6})?\s*[:.-]\s*/i, seeds: ['M001: Title', 'm002-abc123 - x'] },
  { name: 'ESTIMATE', actual: ESTIMATE, oracle: /est:\s*([^`\s]+)/i, seeds: ['`est:30m`', 'EST: 2h'] },
  { name: 'DETAIL', actual: DETAIL, oracle: /^\s*(?:[-*+]\s*)?\*{0,2}(Files|Verify)\*{0,2}:\*{0,2}(.*)$/i, seeds: ['  - Files: `a.ts`', '**verify**: npm test', '- FILES:x'] },
  { name: 'SLICE_ID_PREFIX', actual: SLICE_ID_PREFIX, oracle: /^S\d+\s*[:.-]\s*/i, seeds: ['S01: Title', 's2 - x'] },
  { name: 'PENDING_ACTIONS', actual: PENDING_ACTIONS, oracle: /pending actions/i, seeds: ['Pending actions:', 'x pending ACTIONS y'] },
  { name: 'TASK_ID_PREFIX', actual: TASK_ID_PREFIX, oracle: /^T\d+\s*[:.-]\s*/i, seeds: ['T01: Title', 't2 - x'] },
  { name: 'FAILURE_SIGNALS[0]', actual: FAILURE_SIGNALS[0], oracle: /^[ \t]*#[ \t]*BLOCKER\b/im, seeds: ['# BLOCKER found', 'x\n  #blocker', '#BLOCKERS'] },
  { name: 'FAILURE_SIGNALS[1]', actual: FAILURE_SIGNALS[1], oracle: /auto-mode recovery failed/i, seeds: ['Auto-mode recovery failed', 'AUTO-MODE RECOVERY FAILED.'] },
  { name: 'FAILURE_SIGNALS[2]', actual: FAILURE_SIGNALS[2], oracle: /verification\s+failed/i, seeds: ['verification   FAILED', 'Verification\nfailed'] },
  { name: 'FAILURE_SIGNALS[3]', actual: FAILURE_SIGNALS[3], oracle: /^[ \t]*(?:status|verdict|outcome|result)[ \t]*[:=-][ \t]*not complete\b/im, seeds: ['Status: not complete', 'x\noutcome = Not Complete\n', 'RESULT-NOT COMPLETED'] },
  { name: 'FRONTMATTER_VERDICT', actual: FRONTMATTER_VERDICT, oracle: /verdict:\s*([\w-]+)/i, seeds: ['verdict: pass', 'VERDICT:needs-attention'] },
  { name: 'BODY_VERDICT', actual: BODY_VERDICT, oracle: /\*\*Verdict:?\*\*\s*(?:\u2705\s*)?(\w[\w-]*)/i, seeds: ['**Verdict:** \u2705 PASS', '**verdict** needs-remediation'] },
  { name: 'SUMMARY_SUFFIX', actual: SUMMARY_SUFFIX, oracle: /SUMMARY\.md$/i, seeds: ['T01-SUMMARY.md', 's01-summary.MD'] },
  { name: 'TASK_SUMMARY_FILE', actual: TASK_SUMMARY_FILE, oracle: /^(T\d+)-(?:.*-)?SUMMARY\.md$/i, seeds: ['T01-SUMMARY.md', 't01-foo-summary.md'] },
  { name: 'REVIEW_FILE', actual: REVIEW_FILE, oracle: /^(T\d+)-CODE-REVIEW(?:-C(\d+))?\.md$/i, seeds: ['T01-CODE-REVIEW.md', 't02-code-review-c3.MD'] },
];

/**
 * Characters whose case mapping crosses into ASCII or out of one code unit: under `i` without `u`
 * none of them matches an ASCII letter, and a hand-spelled pattern must agree.
 */
const TRICKY = ['\u017f', '\u212a', '\u0130', '\u0131', '\u00df', '\ufb00', '\u00e9', '\u03a3', '\u03c3', '\u03c2', '\u00c5', '\u212b'];
/** The letters whose case mapping reaches this ASCII letter: `ſ`.toUpperCase() is `S`, the Kelvin sign lower-cased is `k`. */
const LOOKALIKE: Record<string, readonly string[]> = { s: ['\u017f', '\u017f'], k: ['\u212a', '\u212a'], i: ['\u0130', '\u0131'] };
const FILLER = [' ', '\t', '\n', '-', ':', '*', '_', '`', '.', '/', '[', ']', '0', '7', 'a', 'Z', '\u2705'];

function flipCase(c: string): string {
  const u = c.toUpperCase();
  return u === c ? c.toLowerCase() : u;
}

/** A seed changed by a few edits: case flips, tricky letters in place of letters, insertions, deletions. */
const mutated = (seeds: string[]) =>
  fc.tuple(
    fc.constantFrom(...seeds),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom(...TRICKY, ...FILLER)), { maxLength: 4 }),
  ).map(([seed, edits]) => {
    let s = seed;
    for (const [at, kind, ch] of edits) {
      const i = s.length === 0 ? 0 : at % s.length;
      if (kind === 0) s = s.slice(0, i) + flipCase(s[i] ?? '') + s.slice(i + 1);
      else if (kind === 1 && /[a-z]/i.test(s[i] ?? '')) s = s.slice(0, i) + (LOOKALIKE[s[i].toLowerCase()] ?? TRICKY)[at % 2] + s.slice(i + 1);
      else if (kind === 2) s = s.slice(0, i) + ch + s.slice(i);
      else s = s.slice(0, i) + s.slice(i + 1);
    }
    return s;
  });

function matchOf(re: RegExp, s: string): unknown {
  const m = re.exec(s);
  return m === null ? null : { index: m.index, groups: [...m] };
}

describe('GSD name and heading patterns spelled in both cases (against the `i` patterns they replaced)', () => {
  it('lost the i flag and kept every other flag', () => {
    for (const c of CASES) {
      assert.equal(c.actual.flags.includes('i'), false, `${c.name} still has the i flag`);
      assert.equal(c.actual.flags, c.oracle.flags.replace('i', ''), `${c.name} flags`);
    }
  });

  for (const c of CASES) {
    it(`${c.name} matches exactly as ${c.oracle} does`, () => {
      let matched = 0;
      fc.assert(
        fc.property(fc.oneof(mutated(c.seeds), fc.string({ maxLength: 12 })), (s) => {
          const expected = matchOf(c.oracle, s);
          if (expected !== null) matched++;
          assert.deepStrictEqual(matchOf(c.actual, s), expected, `${c.name} on ${JSON.stringify(s)}`);
        }),
        { numRuns: 1500 },
      );
      // Agreeing only on strings that never match would prove nothing.
      assert.ok(matched > 100, `${c.name}: only ${matched} of 1500 inputs matched`);
    });
  }

  it('does not take a letter that only changes case into ASCII (long s, Kelvin sign) for it', () => {
    for (const [re, oracle, text] of [
      [SUMMARY_SUFFIX, /SUMMARY\.md$/i, 'T01-\u017fUMMARY.md'],
      [BLOCKER_LINE, /^\s*(?:[-*]\s+)?\*{0,2}Blocker Task:?\*{0,2}:?\s*`?(T\d+)`?/i, '**Blocker Tas\u212a:** T02'],
    ] as const) {
      assert.equal(matchOf(re, text), null, text);
      assert.equal(matchOf(oracle, text), null, `${text} (the i pattern)`);
      assert.notEqual(matchOf(re, text.replace('\u017f', 'S').replace('\u212a', 'k')), null, `${text} with the ASCII letter`);
    }
  });
});
