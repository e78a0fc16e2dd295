// Builds successor (@opengsd/gsd-pi 1.x) projects for tests, from the facts of issue 17 and
// gsd-pi's own code (paths cited per file). Each test states what it needs; nothing here is read
// from the code under test.
import * as path from 'node:path';
import { writeTree, type Tree } from './write-tree';

/** `<!-- gsd:state-version=R:E -->`, the last line of files GSD renders (markdown-renderer.ts stampProjectionContent). */
export const stamp = (revision: number, epoch: number) => `<!-- gsd:state-version=${revision}:${epoch} -->\n`;

/** A roadmap as renderRoadmapMarkdown writes it: `# M001: Title`, `## Slices`, checkbox lines with risk/depends, `> After this:`. */
export function flatRoadmap(id: string, title: string, slices: Array<{ id: string; title: string; done?: boolean; depends?: string[] }>, stampText = ''): string {
  const lines = [`# ${id}: ${title}`, '', `**Vision:** ${title} works end to end.`, '', '## Slices', ''];
  for (const s of slices) {
    lines.push(`- [${s.done ? 'x' : ' '}] **${s.id}: ${s.title}** \`risk:medium\` \`depends:[${(s.depends ?? []).join(',')}]\``);
    lines.push(`  > After this: ${s.title} can be shown.`);
    lines.push('');
  }
  return lines.join('\n') + '\n' + stampText;
}

/** A slice plan as renderSlicePlanMarkdown writes it: no YAML, identity lines, a `<tasks>` block. */
export function flatSlicePlan(milestoneId: string, sliceId: string, title: string, tasks: Array<{ id: string; title: string; done?: boolean; est?: string }>, stampText = ''): string {
  const lines = [`# ${sliceId}: ${title}`, '', `**Milestone:** ${milestoneId}`, `**Slice:** ${sliceId}`, '', `**Goal:** ${title}.`, `**Demo:** ${title} can be shown.`, '', '## Must-Haves', '', '- It works.', '', '## Verification', '', '- npm test', '', '<tasks>'];
  for (const t of tasks) {
    lines.push(`- [${t.done ? 'x' : ' '}] **${t.id}**: ${t.title}${t.est === '' ? '' : ` _(${t.est ?? '30m'})_`}`);
    lines.push(`  ${t.title} in small steps.`);
    lines.push(`  - Files: \`src/${sliceId.toLowerCase()}-${t.id.toLowerCase()}.ts\``);
    lines.push(`  - Verify: npm test -- --grep ${t.id}`);
  }
  lines.push('</tasks>', '');
  return lines.join('\n') + '\n' + stampText;
}

/** A task summary as renderSummaryContent writes it (workflow-projections.ts), Known Issues as given. */
export function flatTaskSummary(milestoneId: string, sliceId: string, taskId: string, title: string, knownIssues: string, completedAt = '2026-10-01T10:00:00Z'): string {
  return [
    '---',
    `id: ${taskId}`,
    `parent: ${sliceId}`,
    `milestone: ${milestoneId}`,
    'key_files:',
    `  - src/${taskId.toLowerCase()}.ts`,
    'key_decisions:',
    '  - (none)',
    'duration: 20m',
    'verification_result: passed',
    `completed_at: ${completedAt}`,
    'blocker_discovered: false',
    '---',
    '',
    `# ${taskId}: ${title}`,
    '',
    `**${title} done.**`,
    '',
    '## What Happened',
    '',
    'It was built.',
    '',
    '## Verification',
    '',
    'npm test passed.',
    '',
    '## Deviations',
    '',
    'None.',
    '',
    '## Known Issues',
    '',
    knownIssues,
    '',
    '## Files Created/Modified',
    '',
    `- \`src/${taskId.toLowerCase()}.ts\``,
    '',
  ].join('\n');
}

export const PREFERENCES = [
  '---',
  'version: 1',
  'post_unit_hooks:',
  '  - name: code-review',
  '    after: [execute-task]',
  '    prompt: Review {taskId} of {sliceId} in {milestoneId}.',
  '    artifact: REVIEW.md',
  '    criticality: blocking',
  '    on_block:',
  '      action: retry-task',
  '  - name: notes',
  '    after: [execute-task]',
  '    prompt: Write notes.',
  '    artifact: NOTES.md',
  '---',
  '',
].join('\n');

export const S01_T02_KNOWN_ISSUES = ['- Rounding of totals over 1,000 is off by one cent.', '- [x] Currency symbol missing (fixed in T02).', '- Cart is not persisted across sessions.'].join('\n');

/**
 * A project as the successor lays it out (since 1.4.0): `.gsd/phases/01-checkout-flow/` for M001
 * (slice S01 done; S02 with T01 done and T02, T03 open; remediation slice R01), a legacy-named
 * `T01-SUMMARY.md` in milestone 02, `.compat.json`, a blocking review hook's artifact for S02/T01,
 * state-version stamps, and a worktree folder beside `.gsd`.
 */
export function successorLayoutTree(): Tree {
  const p = '.gsd/phases/01-checkout-flow';
  const q = '.gsd/phases/02-order-history';
  return {
    '.gsd/.compat.json': JSON.stringify({ schema: 2, lastWriter: 'gsd-pi', lastProjectedAt: '2026-10-01T10:05:00Z', projections: {}, piVersion: '1.21.0' }, null, 2) + '\n',
    '.gsd/PREFERENCES.md': PREFERENCES,
    [`${p}/01-CONTEXT.md`]: '# M001: Checkout flow\n\nUsers pay for their cart.\n',
    [`${p}/01-ROADMAP.md`]: flatRoadmap(
      'M001',
      'Checkout flow',
      [
        { id: 'S01', title: 'Cart model', done: true },
        { id: 'S02', title: 'Payment', depends: ['S01'] },
        { id: 'R01', title: 'Fix rounding', depends: ['S02'] },
      ],
      stamp(41, 1),
    ),
    [`${p}/01-01-PLAN.md`]: flatSlicePlan('M001', 'S01', 'Cart model', [
      { id: 'T01', title: 'Cart entity', done: true },
      { id: 'T02', title: 'Cart totals', done: true, est: '1h' },
    ], stamp(40, 1)),
    [`${p}/01-01-SUMMARY.md`]: '---\nid: S01\n---\n# S01: Cart model\n\nDone.\n' + stamp(40, 1),
    [`${p}/S01-T01-SUMMARY.md`]: flatTaskSummary('M001', 'S01', 'T01', 'Cart entity', 'None.', '2026-10-01T09:00:00Z'),
    [`${p}/S01-T02-SUMMARY.md`]: flatTaskSummary('M001', 'S01', 'T02', 'Cart totals', S01_T02_KNOWN_ISSUES, '2026-10-01T09:30:00Z'),
    [`${p}/01-02-PLAN.md`]: flatSlicePlan('M001', 'S02', 'Payment', [
      { id: 'T01', title: 'Payment intent', done: true },
      { id: 'T02', title: 'Capture payment' },
      { id: 'T03', title: 'Refunds', est: '' },
    ], stamp(42, 1)),
    [`${p}/S02-T01-SUMMARY.md`]: flatTaskSummary('M001', 'S02', 'T01', 'Payment intent', 'Webhook retries are not idempotent yet; a duplicate event can double-charge.'),
    // The blocking hook's artifact for S02/T01 (rule-registry.ts resolveHookArtifactPath: S02-T01-REVIEW.md).
    [`${p}/S02-T01-REVIEW.md`]: '---\nverdict: Needs-Rework\nrationale: Idempotency key missing on capture.\n---\n# Review of T01\n',
    [`${p}/01-R01-PLAN.md`]: flatSlicePlan('M001', 'R01', 'Fix rounding', [{ id: 'T01', title: 'Round half-even' }], stamp(42, 1)),
    [`${q}/02-ROADMAP.md`]: flatRoadmap('M002', 'Order history', [{ id: 'S01', title: 'List orders' }]),
    [`${q}/02-01-PLAN.md`]: flatSlicePlan('M002', 'S01', 'List orders', [{ id: 'T01', title: 'Orders query' }, { id: 'T02', title: 'Orders page' }]),
    // Older successor name of a task summary, still read (paths.ts resolveTaskFile).
    [`${q}/T01-SUMMARY.md`]: flatTaskSummary('M002', 'S01', 'T01', 'Orders query', 'None.'),
    '.gsd-worktrees/M001/README.md': 'worktree\n',
  };
}

export function writeSuccessorLayout(extra: Tree = {}, into?: string): { root: string; gsdDir: string } {
  const root = writeTree({ ...successorLayoutTree(), ...extra }, into);
  return { root, gsdDir: path.join(root, '.gsd') };
}

/**
 * The first 100 bytes of an SQLite file as the documented format lays them out
 * (https://www.sqlite.org/fileformat.html): magic, page size, WAL format versions (2/2), user_version
 * at 60, application_id at 68. Enough for detection without node:sqlite; not a usable database.
 */
export function sqliteHeaderOnly(userVersion: number, applicationId: number): Buffer {
  const b = Buffer.alloc(4096);
  b.write('SQLite format 3\0', 0, 'latin1');
  b.writeUInt16BE(4096, 16);
  b[18] = 2;
  b[19] = 2;
  b[21] = 64;
  b[22] = 32;
  b[23] = 32;
  b.writeUInt32BE(1, 28);
  b.writeInt32BE(userVersion, 60);
  b.writeUInt32BE(applicationId >>> 0, 68);
  b.writeUInt32BE(3051000, 96);
  return b;
}
