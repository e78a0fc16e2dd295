// A GSD-2 database project of N tasks shaped as GSD-2's own tools leave one (issue 38): `gsd.db` with
// the rows its planning and completion tools write (milestone, slice and task rows with their plan and
// summary text, the artifacts table holding every rendered plan, roadmap and context, the quality gates
// each plan opens and each completion closes, verification evidence, gate runs, validation
// assessments), and beside it what GSD-2 renders: every task's PLAN, a SUMMARY per finished task,
// slice and milestone, a slice's UAT, a milestone's ROADMAP, CONTEXT and VALIDATION, STATE.md,
// state-manifest.json and the event log (one line per tool call).
// The shape was checked against a 2,000-task project made by GSD-2's own handlers
// (gsd_plan_milestone, gsd_plan_slice, gsd_task_complete, gsd_slice_complete, gsd_validate_milestone,
// gsd_complete_milestone, gsd_summary_save; gsd-build/gsd-2 at 76568edc, run outside this repository):
// 50 milestones of 5 slices of 8 tasks; the first 12 milestones validated, 11 of them completed,
// 62 slices and 500 tasks done; 3,004 files (2,250 PLAN, 573 SUMMARY, 62 UAT, 50 ROADMAP, 50 CONTEXT,
// 12 VALIDATION), a 184 KB event log and a 7.0 MB gsd.db (6,798 quality gates, 2,350 artifacts).
// Sizes other than 2,000 keep the proportions: 8 tasks a slice, 5 slices a milestone, the first
// 24% of the milestones validated.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NodeSqlite } from '../src/core/sqlite/node-sqlite';
import { SCHEMA_29 } from '../test/unit/helpers/gsd2-schema';

const TASKS_PER_SLICE = 8;
const SLICES_PER_MILESTONE = 5;

/** Tables GSD-2's completion tools fill that the state derivation does not read (schema 29 columns). */
const COMPLETION_TABLES = `
CREATE TABLE verification_evidence (id INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL DEFAULT '', slice_id TEXT NOT NULL DEFAULT '',
  milestone_id TEXT NOT NULL DEFAULT '', command TEXT NOT NULL DEFAULT '', exit_code INTEGER DEFAULT 0, verdict TEXT NOT NULL DEFAULT '',
  duration_ms INTEGER DEFAULT 0, created_at TEXT NOT NULL DEFAULT '');
CREATE TABLE gate_runs (id INTEGER PRIMARY KEY AUTOINCREMENT, trace_id TEXT NOT NULL, turn_id TEXT NOT NULL, gate_id TEXT NOT NULL,
  gate_type TEXT NOT NULL DEFAULT '', unit_type TEXT DEFAULT NULL, unit_id TEXT DEFAULT NULL, milestone_id TEXT DEFAULT NULL,
  slice_id TEXT DEFAULT NULL, task_id TEXT DEFAULT NULL, outcome TEXT NOT NULL DEFAULT 'pass', failure_class TEXT NOT NULL DEFAULT 'none',
  rationale TEXT NOT NULL DEFAULT '', findings TEXT NOT NULL DEFAULT '', attempt INTEGER NOT NULL DEFAULT 1,
  max_attempts INTEGER NOT NULL DEFAULT 1, retryable INTEGER NOT NULL DEFAULT 0, evaluated_at TEXT NOT NULL DEFAULT '');
`;

export interface Gsd2ProjectShape {
  milestones: number;
  /** Milestones validated, all slices done. */
  validated: number;
  /** Of those, completed (a milestone SUMMARY). The next validated one waits for its completion. */
  completed: number;
  /** In the milestone after the validated ones: slices done, then tasks done in the next slice. */
  slicesDoneAfter: number;
  tasksDoneAfter: number;
}

export function gsd2ShapeFor(tasks: number): Gsd2ProjectShape {
  const milestones = Math.max(2, Math.round(tasks / (TASKS_PER_SLICE * SLICES_PER_MILESTONE)));
  const validated = Math.max(1, Math.round(milestones * 0.24));
  return { milestones, validated, completed: validated - 1, slicesDoneAfter: 2, tasksDoneAfter: 4 };
}

const mid = (m: number) => `M${String(m).padStart(3, '0')}`;
const sid = (s: number) => `S${String(s).padStart(2, '0')}`;
const tid = (t: number) => `T${String(t).padStart(2, '0')}`;

/** A clock that moves a few milliseconds per tool call, as a scripted run of GSD's tools does. */
class Clock {
  private ms = Date.parse('2026-11-20T10:00:00.000Z');
  now(step = 17): string {
    this.ms += step;
    return new Date(this.ms).toISOString();
  }
}

function taskPlan(m: number, s: number, t: number): { md: string; description: string; files: string[]; verify: string; inputs: string[]; output: string[] } {
  const description = `Implement part ${t} of step ${s} of capability ${m}: the handler, its validation and its tests.`;
  const files = [`src/feature-${m}/step-${s}/part-${t}.ts`, `test/feature-${m}/step-${s}/part-${t}.test.ts`];
  const verify = `npm test -- test/feature-${m}/step-${s}/part-${t}.test.ts`;
  const inputs = t > 1 ? [`src/feature-${m}/step-${s}/part-${t - 1}.ts`] : [];
  const md = [
    '---', 'estimated_steps: 1', `estimated_files: ${files.length}`, 'skills_used: []', '---', '',
    `# ${tid(t)}: Task ${t} of slice ${s}`, '', description, '',
    '## Inputs', '', ...(inputs.length ? inputs.map((i) => `- \`${i}\``) : ['- None specified.']), '',
    '## Expected Output', '', ...files.map((f) => `- \`${f}\``), '',
    '## Verification', '', verify, '', '## Observability Impact', '', 'Failures name the part.', '',
  ].join('\n');
  return { md, description, files, verify, inputs, output: files };
}

function slicePlan(m: number, s: number, done: (t: number) => boolean): string {
  const lines = [
    `# ${sid(s)}: Slice ${s} of milestone ${m}`, '', `**Goal:** Build step ${s} of capability ${m}.`,
    `**Demo:** After this the user can run step ${s} of capability ${m} end to end.`, '',
    '## Must-Haves', '', `- Step ${s} works`, '- Tests cover it', '', '## Proof Level', '', '- This slice proves: integration', '',
    '## Integration Closure', '', `Step ${s} is wired in.`, '', '## Verification', '', '- Errors carry the unit id', '', '## Tasks', '',
  ];
  for (let t = 1; t <= TASKS_PER_SLICE; t++) {
    const p = taskPlan(m, s, t);
    lines.push(
      `- [${done(t) ? 'x' : ' '}] **${tid(t)}: Task ${t} of slice ${s}** \`est:${estimate(t)}\``, `  ${p.description}`,
      `  - Files: ${p.files.map((f) => `\`${f}\``).join(', ')}`, `  - Verify: ${p.verify}`, '',
    );
  }
  return lines.join('\n');
}

const estimate = (t: number) => `${15 + 15 * (t % 4)}m`;

function taskSummary(m: number, s: number, t: number, at: string): string {
  return [
    '---', `id: ${tid(t)}`, `parent: ${sid(s)}`, `milestone: ${mid(m)}`, 'key_files:', `  - src/feature-${m}/step-${s}/part-${t}.ts`,
    'key_decisions: []', 'duration: ', 'verification_result: passed', `completed_at: ${at}`, 'blocker_discovered: false', '---', '',
    `# ${tid(t)}: Implemented part ${t} of step ${s}`, '', `**Implemented part ${t} of step ${s}**`, '', '## What Happened', '',
    `Wrote the handler for part ${t}, validated its input and added tests for the error paths. The existing helpers covered the parsing.`, '',
    '## Verification', '', `npm test -- test/feature-${m}/step-${s}/part-${t}.test.ts passed`, '', '## Verification Evidence', '',
    '| # | Command | Exit Code | Verdict | Duration |', '|---|---------|-----------|---------|----------|',
    `| 1 | \`npm test -- part-${t}\` | 0 | pass | ${1200 + t}ms |`, '', '## Deviations', '', 'None.', '', '## Known Issues', '', 'None.', '',
    '## Files Created/Modified', '', `- \`src/feature-${m}/step-${s}/part-${t}.ts\``, '',
  ].join('\n');
}

function sliceSummary(m: number, s: number, at: string): string {
  const none = (h: string) => [`## ${h}`, '', 'None.', ''];
  return [
    '---', `id: ${sid(s)}`, `parent: ${mid(m)}`, `milestone: ${mid(m)}`, 'provides:', `  - step ${s}`, 'requires:', '  []', 'affects:', '  []',
    'key_files:', `  - src/feature-${m}/step-${s}/index.ts`, 'key_decisions: []', 'patterns_established:', '  - (none)', 'observability_surfaces:',
    '  - none', 'drill_down_paths:', '  []', 'duration: ""', 'verification_result: passed', `completed_at: ${at}`, 'blocker_discovered: false', '---', '',
    `# ${sid(s)}: Slice ${s} of milestone ${m}`, '', `**Step ${s} of capability ${m} works**`, '', '## What Happened', '',
    `All ${TASKS_PER_SLICE} tasks landed; the step is wired into the CLI.`, '', '## Verification', '', 'All tests pass.', '',
    ...none('Requirements Advanced'), ...none('Requirements Validated'), ...none('New Requirements Surfaced'),
    ...none('Requirements Invalidated or Re-scoped'), ...none('Operational Readiness'), ...none('Deviations'), ...none('Known Limitations'),
    ...none('Follow-ups'), ...none('Files Created/Modified'),
  ].join('\n');
}

const sliceUat = (m: number, s: number, at: string) =>
  `# ${sid(s)}: Slice ${s} of milestone ${m} — UAT\n\n**Milestone:** ${mid(m)}\n**Written:** ${at}\n\n## Smoke Test\n\nRun step ${s} of capability ${m}.\n\n## Test Cases\n\n### 1. Happy path\n\n1. Run it\n2. **Expected:** it works\n`;

function roadmap(m: number, slicesDone: number): string {
  const lines = [`# ${mid(m)}: Capability ${m}`, '', `**Vision:** Users can use capability ${m} from the CLI and the editor.`, '',
    '## Success Criteria', '', `- Capability ${m} works end to end`, '- Tests cover the new paths', '', '## Slices', ''];
  for (let s = 1; s <= SLICES_PER_MILESTONE; s++) {
    lines.push(`- [${s <= slicesDone ? 'x' : ' '}] **${sid(s)}: Slice ${s} of milestone ${m}** \`risk:${risk(s)}\` \`depends:[${s > 1 ? sid(s - 1) : ''}]\``,
      `  > After this: After this the user can run step ${s} of capability ${m} end to end.`, '');
  }
  lines.push('## Boundary Map', '', '| From | To | Produces | Consumes |', '|------|----|----------|----------|', '| S01 | S02 | api | nothing |', '');
  return lines.join('\n');
}

const risk = (s: number) => ['low', 'medium', 'high'][s % 3];

const context = (m: number) =>
  `# ${mid(m)}: Context\n\n## Goal\n\nDeliver capability ${m} of the product: the parts the users asked for in the discussion, with tests.\n\n## Constraints\n\n- Keep the public API stable.\n- No new runtime dependency without a reason.\n\n## Decisions\n\n- D${m}: store state in the database, render markdown for people.\n`;

const validation = (m: number) =>
  `---\nverdict: pass\nremediation_round: 0\n---\n\n# Milestone Validation: ${mid(m)}\n\n## Success Criteria Checklist\n- [x] All pass\n\n## Slice Delivery Audit\n| S01 | delivered |\n\n## Cross-Slice Integration\nNo issues\n\n## Requirement Coverage\nAll covered\n\n## Verification Class Compliance\n- Contract: covered\n- Integration: covered\n- Operational: covered\n- UAT: covered\n\n\n## Verdict Rationale\nEverything checks out\n`;

const milestoneSummary = (m: number, at: string) =>
  `---\nid: ${mid(m)}\ntitle: "Capability ${m}"\nstatus: complete\ncompleted_at: ${at}\nkey_decisions: []\nkey_files: []\nlessons_learned:\n  - (none)\n---\n\n# ${mid(m)}: Capability ${m}\n\n**Capability ${m} shipped**\n\n## What Happened\n\nAll slices done.\n\n## Success Criteria Results\n\nAll met\n\n## Definition of Done Results\n\nDone\n\n## Requirement Outcomes\n\nCovered\n\n## Deviations\n\nNone.\n\n## Follow-ups\n\nNone.\n`;

/** What the steps below write through: the open database's statements, the clock, the logs. */
interface Gsd2Writer {
  gsd: string;
  shape: Gsd2ProjectShape;
  clock: Clock;
  events: string[];
  audit: string[];
  st: ReturnType<typeof prepareStatements>;
  event(cmd: string, params: Record<string, string>): void;
  write(rel: string, text: string): void;
  slicesDone(m: number): number;
  tasksDone(m: number, s: number): number;
}

function prepareStatements(db: InstanceType<NodeSqlite['DatabaseSync']>) {
  return {
    milestone: db.prepare(`INSERT INTO milestones (id, title, status, depends_on, created_at, completed_at, vision, success_criteria, key_risks,
    proof_strategy, verification_contract, verification_integration, verification_operational, verification_uat, definition_of_done,
    requirement_coverage, boundary_map_markdown, sequence) VALUES (?, ?, ?, '[]', ?, ?, ?, ?, ?, ?, ?, ?, 'None.', ?, ?, ?, ?, 0)`),
    slice: db.prepare(`INSERT INTO slices (milestone_id, id, title, status, risk, depends, demo, created_at, completed_at, full_summary_md,
    full_uat_md, goal, success_criteria, proof_level, integration_closure, observability_impact, target_repositories, sequence)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'integration', ?, '- Errors carry the unit id', '["project"]', 0)`),
    task: db.prepare(`INSERT INTO tasks (milestone_id, slice_id, id, title, status, one_liner, narrative, verification_result, completed_at,
    deviations, known_issues, key_files, key_decisions, full_summary_md, description, estimate, files, verify, inputs, expected_output,
    observability_impact, target_repositories, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?, ?, ?, ?, ?, ?,
    'Failures name the part.', '["project"]', 0)`),
    artifact: db.prepare('INSERT INTO artifacts (path, artifact_type, milestone_id, slice_id, task_id, full_content, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    gate: db.prepare('INSERT INTO quality_gates (milestone_id, slice_id, gate_id, scope, task_id, status, verdict, rationale, findings, evaluated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    evidence: db.prepare('INSERT INTO verification_evidence (task_id, slice_id, milestone_id, command, exit_code, verdict, duration_ms, created_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?)'),
    run: db.prepare(`INSERT INTO gate_runs (trace_id, turn_id, gate_id, gate_type, milestone_id, slice_id, task_id, outcome, failure_class, rationale, evaluated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    assessment: db.prepare("INSERT INTO assessments (path, milestone_id, status, scope, full_content, created_at) VALUES (?, ?, 'pass', 'milestone-validation', ?, ?)"),
  };
}

/** A task's row, plan, gates, evidence and (once done) summary, as GSD's plan and complete-task handlers leave them. */
function writeTask(g: Gsd2Writer, m: number, s: number, t: number, created: string): void {
  const [M, S, T] = [mid(m), sid(s), tid(t)];
  const sDir = `milestones/${M}/slices/${S}`;
  const p = taskPlan(m, s, t);
  g.write(`${sDir}/tasks/${T}-PLAN.md`, p.md);
  g.st.artifact.run(`${sDir}/tasks/${T}-PLAN.md`, 'PLAN', M, S, T, p.md, created);
  const tAt = t <= g.tasksDone(m, s) ? g.clock.now(25) : null;
  const summary = tAt ? taskSummary(m, s, t, tAt) : '';
  g.st.task.run(M, S, T, tAt ? `Implemented part ${t} of step ${s}` : `Task ${t} of slice ${s}`, tAt ? 'complete' : 'pending',
    tAt ? `Implemented part ${t} of step ${s}` : '',
    tAt ? `Wrote the handler for part ${t}, validated its input and added tests for the error paths. The existing helpers covered the parsing.` : '',
    tAt ? `npm test -- test/feature-${m}/step-${s}/part-${t}.test.ts passed` : '', tAt, tAt ? 'None.' : '', tAt ? 'None.' : '',
    tAt ? JSON.stringify([`src/feature-${m}/step-${s}/part-${t}.ts`]) : '[]', summary, p.description, estimate(t),
    JSON.stringify(p.files), p.verify, JSON.stringify(p.inputs), JSON.stringify(p.output));
  for (const gate of ['Q5', 'Q6', 'Q7']) {
    g.st.gate.run(M, S, gate, 'task', T, tAt ? 'complete' : 'pending', tAt ? 'omitted' : '', tAt ? 'section left empty — recorded as omitted' : '', '', tAt);
    if (tAt) g.st.run.run(`quality-gate:${M}:${S}`, `gate:${gate}:${T}`, gate, 'quality-gate', M, S, T, 'manual-attention', 'manual-attention', 'section left empty — recorded as omitted', tAt);
  }
  if (tAt) {
    g.st.evidence.run(T, S, M, `npm test -- part-${t}`, 'pass', 1200 + t, tAt);
    g.write(`${sDir}/tasks/${T}-SUMMARY.md`, summary);
    g.event('complete-task', { milestoneId: M, sliceId: S, taskId: T });
  }
}

/** A slice's row, plan and gates, its tasks, and (once done) its summary and UAT. */
function writeSlice(g: Gsd2Writer, m: number, s: number, created: string): void {
  const [M, S] = [mid(m), sid(s)];
  const sDir = `milestones/${M}/slices/${S}`;
  const sliceDone = s <= g.slicesDone(m);
  const sAt = sliceDone ? g.clock.now(30) : null;
  g.st.slice.run(M, S, `Slice ${s} of milestone ${m}`, sliceDone ? 'complete' : 'pending', risk(s), JSON.stringify(s > 1 ? [sid(s - 1)] : []),
    `After this the user can run step ${s} of capability ${m} end to end.`, created, sAt, sAt ? sliceSummary(m, s, sAt) : '',
    sAt ? sliceUat(m, s, sAt) : '', `Build step ${s} of capability ${m}.`, `- Step ${s} works\n- Tests cover it`, `Step ${s} is wired in.`);
  const done = g.tasksDone(m, s);
  const plan = slicePlan(m, s, (t) => t <= done);
  g.event('plan-slice', { milestoneId: M, sliceId: S });
  g.write(`${sDir}/${S}-PLAN.md`, plan);
  g.st.artifact.run(`${sDir}/${S}-PLAN.md`, 'PLAN', M, S, null, plan, created);
  // The gates a slice plan opens: Q3 and Q4 for gate-evaluate, Q8 closed by the slice's completion.
  g.st.gate.run(M, S, 'Q3', 'slice', '', 'pending', '', '', '', null);
  g.st.gate.run(M, S, 'Q4', 'slice', '', 'pending', '', '', '', null);
  g.st.gate.run(M, S, 'Q8', 'slice', '', sAt ? 'complete' : 'pending', sAt ? 'pass' : '', sAt ? 'Operational Readiness section populated' : '', '', sAt);
  for (let t = 1; t <= TASKS_PER_SLICE; t++) writeTask(g, m, s, t, created);
  if (sAt) {
    g.st.run.run(`quality-gate:${M}:${S}`, `gate:Q8:${S}`, 'Q8', 'quality-gate', M, S, null, 'pass', 'none', 'Operational Readiness section populated', sAt);
    g.write(`${sDir}/${S}-SUMMARY.md`, sliceSummary(m, s, sAt));
    g.write(`${sDir}/${S}-UAT.md`, sliceUat(m, s, sAt));
    g.event('complete-slice', { milestoneId: M, sliceId: S });
  }
}

/** A validated milestone's gates, gate run, assessment, VALIDATION file and audit event. */
function writeValidation(g: Gsd2Writer, m: number): void {
  const M = mid(m);
  const mDir = `milestones/${M}`;
  const at = g.clock.now();
  for (const gate of ['MV01', 'MV02', 'MV03', 'MV04']) g.st.gate.run(M, 'S01', gate, 'milestone', '', 'complete', 'pass', 'milestone validation verdict: pass', '', at);
  g.st.run.run(`validate-milestone:${M}`, `${M}:validate`, 'milestone-validation-gates', 'verification', M, null, null, 'pass', 'none', '', at);
  g.st.assessment.run(path.join(g.gsd, mDir, `${M}-VALIDATION.md`), M, validation(m), at);
  g.write(`${mDir}/${M}-VALIDATION.md`, validation(m));
  g.audit.push(JSON.stringify({ version: '1', eventId: `${M}-validate`, traceId: `validate-milestone:${M}`, turnId: `${M}:validate`, category: 'gate', type: 'gate-run', ts: at,
    payload: { gateId: 'milestone-validation-gates', gateType: 'verification', outcome: 'pass', failureClass: 'none', attempt: 1, maxAttempts: 1, retryable: false } }));
}

/** A milestone's row, context and roadmap, its slices, its validation and (once done) its summary. */
function writeMilestone(g: Gsd2Writer, m: number): void {
  const M = mid(m);
  const mDir = `milestones/${M}`;
  const created = g.clock.now();
  g.write(`${mDir}/${M}-CONTEXT.md`, context(m));
  g.st.artifact.run(`${mDir}/${M}-CONTEXT.md`, 'CONTEXT', M, null, null, context(m), created);
  const completedAt = m <= g.shape.completed ? g.clock.now(40) : null;
  g.st.milestone.run(M, `Capability ${m}`, completedAt ? 'complete' : 'active', created, completedAt,
    `Users can use capability ${m} from the CLI and the editor.`, JSON.stringify([`Capability ${m} works end to end`, 'Tests cover the new paths']),
    JSON.stringify([{ risk: 'Schema drift', whyItMatters: 'The renderer and the database could disagree.' }]),
    JSON.stringify([{ riskOrUnknown: 'Schema drift', retireIn: 'S01', whatWillBeProven: 'Round trip of rendered files.' }]),
    'Unit tests of every handler.', 'CLI run against a fixture project.', 'A person runs the demo.',
    JSON.stringify(['All slices complete', 'UAT passed']), `Covers R${String(m).padStart(3, '0')}.`,
    '| From | To | Produces | Consumes |\n|------|----|----------|----------|\n| S01 | S02 | api | nothing |');
  g.event('plan-milestone', { milestoneId: M });
  const rm = roadmap(m, g.slicesDone(m));
  g.write(`${mDir}/${M}-ROADMAP.md`, rm);
  g.st.artifact.run(`${mDir}/${M}-ROADMAP.md`, 'ROADMAP', M, null, null, rm, created);
  for (let s = 1; s <= SLICES_PER_MILESTONE; s++) writeSlice(g, m, s, created);
  if (m <= g.shape.validated) writeValidation(g, m);
  if (completedAt) {
    g.write(`${mDir}/${M}-SUMMARY.md`, milestoneSummary(m, completedAt));
    g.event('complete-milestone', { milestoneId: M });
  }
}

/** What GSD renders beside the closed database: STATE.md, the logs, the write gate's state and the manifest. */
function writeRenderedFiles(g: Gsd2Writer, sqlite: NodeSqlite): void {
  const { shape } = g;
  const active = shape.validated > shape.completed ? shape.validated : shape.validated + 1;
  const registry = Array.from({ length: shape.milestones }, (_, i) => `- ${i + 1 <= shape.completed ? '✅' : i + 1 === active ? '🔄' : '⬜'} **${mid(i + 1)}:** Capability ${i + 1}`);
  g.write('STATE.md', `# GSD State\n\n**Active Milestone:** ${mid(active)}: Capability ${active}\n**Active Slice:** None\n**Phase:** executing\n\n## Milestone Registry\n${registry.join('\n')}\n`);
  g.write('event-log.jsonl', g.events.join('\n') + '\n');
  g.write('runtime/write-gate-state.json', JSON.stringify({ verifiedDepthMilestones: Array.from({ length: shape.milestones }, (_, i) => mid(i + 1)), verifiedApprovalGates: [], activeQueuePhase: false, pendingGateId: null }, null, 2));
  g.write('audit/events.jsonl', g.audit.join('\n') + (g.audit.length ? '\n' : ''));
  // GSD's manifest (workflow-manifest.ts writeManifest): the rows exported as JSON, 3.6 MB for 2,000 tasks.
  const read = new sqlite.DatabaseSync(path.join(g.gsd, 'gsd.db'), { readOnly: true });
  const all = (table: string) => read.prepare(`SELECT * FROM ${table}`).all();
  const manifest = { version: 1, exported_at: g.clock.now(), milestones: all('milestones'), slices: all('slices'), tasks: all('tasks'),
    decisions: all('decisions'), verification_evidence: all('verification_evidence') };
  read.close();
  g.write('state-manifest.json', JSON.stringify(manifest, null, 2));
}

/** Writes the project into `root` (a `.git` marker and `.gsd`). Returns the number of task rows. */
export function generateGsd2Project(sqlite: NodeSqlite, root: string, tasks: number, shape = gsd2ShapeFor(tasks)): number {
  const gsd = path.join(root, '.gsd');
  fs.mkdirSync(path.join(root, '.git'), { recursive: true });
  fs.mkdirSync(path.join(gsd, 'runtime'), { recursive: true });
  fs.mkdirSync(path.join(gsd, 'audit'), { recursive: true });
  const clock = new Clock();
  const sessionId = '4222ef3c-f7d4-4aef-8f71-c93635e76a0f';
  const events: string[] = [];
  const db = new sqlite.DatabaseSync(path.join(gsd, 'gsd.db'));
  db.exec('PRAGMA journal_mode=WAL');
  db.exec(SCHEMA_29);
  db.exec(COMPLETION_TABLES);
  db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(29, clock.now());
  const slicesDone = (m: number) => (m <= shape.validated ? SLICES_PER_MILESTONE : m === shape.validated + 1 ? shape.slicesDoneAfter : 0);
  const g: Gsd2Writer = {
    gsd, shape, clock, events, audit: [], st: prepareStatements(db), slicesDone,
    tasksDone: (m, s) => (s <= slicesDone(m) ? TASKS_PER_SLICE : m === shape.validated + 1 && s === shape.slicesDoneAfter + 1 ? shape.tasksDoneAfter : 0),
    event: (cmd, params) =>
      events.push(JSON.stringify({ v: 2, cmd, params, ts: clock.now(), actor: 'agent', hash: (events.length * 2654435761 >>> 0).toString(16).padStart(16, '0').slice(0, 16), session_id: sessionId })),
    write: (rel, text) => {
      const file = path.join(gsd, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    },
  };
  db.exec('BEGIN');
  for (let m = 1; m <= shape.milestones; m++) writeMilestone(g, m);
  db.exec('COMMIT');
  db.close(); // as GSD leaves it after a clean close: gsd.db alone
  writeRenderedFiles(g, sqlite);
  return shape.milestones * SLICES_PER_MILESTONE * TASKS_PER_SLICE;
}
