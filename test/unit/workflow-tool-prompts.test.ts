// On a GSD-2 database project the execute-task, plan-slice, complete-slice, replan-slice,
// plan-milestone, validate-milestone and complete-milestone prompts tell the agent which tool of GSD's
// `gsd-workflow` MCP server to call, with which arguments; a markdown project keeps today's prompts
// byte for byte.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { defaultDecision, replanDecision } from '../../src/core/dispatch/default-dispatch';
import MarkdownIt from 'markdown-it';
import { dispatchNextUnit } from './helpers/one-shot-dispatch';
import { FIX_TASK, render, summaryUpdate } from '../../src/core/hooks/builtin/review-loop/review-prompts';
import { findUnit } from '../../src/core/model/find-unit';
import type { GSDState } from '../../src/core/model/types';
import type { PromptContext } from '../../src/core/prompts/prompt-context';
import { emptySqliteDatabase } from './helpers/empty-sqlite';
import { Gsd2Project, skipWithoutSqlite } from './helpers/gsd2-database';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';
import { fullState } from './helpers/state';

// The tools' argument schemas as GSD-2 declares them: gsd-build/gsd-2 at commit
// 76568edc0d7cc3700e8841649328449115ee5544, packages/mcp-server/src/workflow-tools.ts
// (`taskCompleteParams` l.1417, `replanSliceParams` l.1260, `planSliceParams` l.1170,
// `sliceCompleteParams` l.1282; tool names registered with server.tool(...) l.1705, 1763, 1784, 1931;
// `planMilestoneParams` l.1142 with its slices `planMilestoneSliceSchema` l.1101, `validateMilestoneParams`
// l.1211, `completeMilestoneParams` l.1193, registered as gsd_plan_milestone l.1690,
// gsd_complete_milestone l.1835 and gsd_validate_milestone l.1856; gsd_milestone_complete l.1845 and
// gsd_milestone_validate l.1866 are aliases of those two, and the prompts name the canonical names).
// `required` = not `.optional()` there; `projectDir` is optional everywhere (defaults to the server's cwd).
interface ItemSchema {
  arg: string;
  required: string[];
  optional: string[];
}
interface ToolSchema {
  required: string[];
  optional: string[];
  /** The fields of the objects of a list argument (tasks, updatedTasks, slices, keyRisks, …). */
  items?: ItemSchema[];
}
const GSD2_TOOLS: Record<string, ToolSchema> = {
  gsd_task_complete: {
    required: ['taskId', 'sliceId', 'milestoneId', 'oneLiner', 'narrative', 'verification'],
    optional: ['projectDir', 'deviations', 'knownIssues', 'keyFiles', 'keyDecisions', 'blockerDiscovered', 'escalation', 'verificationEvidence'],
  },
  gsd_replan_slice: {
    required: ['milestoneId', 'sliceId', 'blockerTaskId', 'blockerDescription', 'whatChanged', 'updatedTasks', 'removedTaskIds'],
    optional: ['projectDir'],
    items: [{ arg: 'updatedTasks', required: ['taskId', 'title', 'description', 'estimate', 'files', 'verify', 'inputs', 'expectedOutput'], optional: ['fullPlanMd'] }],
  },
  gsd_plan_slice: {
    required: ['milestoneId', 'sliceId', 'goal', 'tasks'],
    optional: ['projectDir', 'successCriteria', 'proofLevel', 'integrationClosure', 'observabilityImpact'],
    items: [{ arg: 'tasks', required: ['taskId', 'title', 'description', 'estimate', 'files', 'verify', 'inputs', 'expectedOutput'], optional: ['observabilityImpact'] }],
  },
  gsd_slice_complete: {
    required: ['sliceId', 'milestoneId', 'sliceTitle', 'oneLiner', 'narrative', 'verification', 'uatContent'],
    optional: [
      'projectDir', 'deviations', 'knownLimitations', 'followUps', 'keyFiles', 'keyDecisions', 'patternsEstablished', 'observabilitySurfaces',
      'provides', 'requirementsSurfaced', 'drillDownPaths', 'affects', 'requirementsAdvanced', 'requirementsValidated', 'requirementsInvalidated',
      'filesModified', 'requires',
    ],
  },
  gsd_plan_milestone: {
    required: ['milestoneId', 'title', 'vision', 'slices'],
    optional: [
      'projectDir', 'status', 'dependsOn', 'successCriteria', 'keyRisks', 'proofStrategy', 'verificationContract', 'verificationIntegration',
      'verificationOperational', 'verificationUat', 'definitionOfDone', 'requirementCoverage', 'boundaryMapMarkdown',
    ],
    items: [
      {
        arg: 'slices',
        // The four planning fields are `.optional()` in the object but its superRefine (l.1118-1139)
        // requires them, non-empty, on every slice that is not a sketch; the prompt plans full slices.
        required: ['sliceId', 'title', 'risk', 'depends', 'demo', 'goal', 'successCriteria', 'proofLevel', 'integrationClosure', 'observabilityImpact'],
        optional: ['isSketch', 'sketchScope'],
      },
      { arg: 'keyRisks', required: ['risk', 'whyItMatters'], optional: [] },
      { arg: 'proofStrategy', required: ['riskOrUnknown', 'retireIn', 'whatWillBeProven'], optional: [] },
    ],
  },
  gsd_validate_milestone: {
    required: ['milestoneId', 'verdict', 'remediationRound', 'successCriteriaChecklist', 'sliceDeliveryAudit', 'crossSliceIntegration', 'requirementCoverage', 'verdictRationale'],
    optional: ['projectDir', 'verificationClasses', 'remediationPlan'],
  },
  gsd_complete_milestone: {
    required: ['milestoneId', 'title', 'oneLiner', 'narrative', 'verificationPassed'],
    optional: [
      'projectDir', 'successCriteriaResults', 'definitionOfDoneResults', 'requirementOutcomes', 'keyDecisions', 'keyFiles', 'lessonsLearned', 'followUps',
      'deviations',
    ],
  },
};
// `saveGateResultParams` l.1248, registered as gsd_save_gate_result l.1898.
GSD2_TOOLS.gsd_save_gate_result = {
  required: ['milestoneId', 'sliceId', 'gateId', 'verdict', 'rationale'],
  optional: ['projectDir', 'taskId', 'findings'],
};
/** z.enum of `verdict` in `validateMilestoneParams` (l.1214). */
const VALIDATION_VERDICTS = ['pass', 'needs-attention', 'needs-remediation'];

interface ToolCall {
  tool: string;
  /** Argument name → the text after its colon. */
  args: Map<string, string>;
}

/** The tool call a prompt asks for: "Call `tool` with:" and the bullet list after it. */
function toolCallOf(prompt: string): ToolCall {
  const lines = prompt.split('\n');
  const at = lines.findIndex((l) => /^Call `\w+` with:$/.test(l));
  assert.ok(at >= 0, `no "Call \`tool\` with:" line in:\n${prompt}`);
  const tool = /`(\w+)`/.exec(lines[at])![1];
  const args = new Map<string, string>();
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('- ')) break;
    const colon = line.indexOf(':');
    const head = line.slice(2, colon).trim();
    const rest = line.slice(colon + 1).trim();
    if (head === 'optional') for (const name of rest.split(',')) args.set(name.trim(), '(optional)');
    else args.set(head.replace(/\s*\(optional\)$/, ''), rest);
  }
  return { tool, args };
}

/** Every argument named exists in GSD's schema, and every required one is named. */
function assertMatchesSchema(call: ToolCall): void {
  const schema = GSD2_TOOLS[call.tool];
  assert.ok(schema, `${call.tool} is not one of GSD-2's workflow tools`);
  for (const name of call.args.keys()) assert.ok([...schema.required, ...schema.optional].includes(name), `${call.tool} has no argument "${name}"`);
  for (const name of schema.required) assert.ok(call.args.has(name), `${call.tool} needs "${name}", the prompt does not name it`);
  for (const items of schema.items ?? []) {
    const text = call.args.get(items.arg);
    if (text === undefined && !schema.required.includes(items.arg)) continue;
    const fields = /\{([^}]*)\}/.exec(text!)![1].split(',').map((f) => f.trim());
    for (const name of fields) assert.ok([...items.required, ...items.optional].includes(name), `${items.arg}: GSD knows no field "${name}"`);
    for (const name of items.required) assert.ok(fields.includes(name), `${items.arg}: each object needs "${name}", the prompt does not name it`);
  }
}

const M = '.gsd/milestones/M001';
const S = `${M}/slices/S01`;

/** A slice with T01 done (with pending actions) and T02 to do. */
function project(extra: Record<string, string> = {}): string {
  return writeTree({
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Invoice model', done: true }, { id: 'T02', title: 'CSV export' }]),
    [`${S}/tasks/T01-PLAN.md`]: '# T01: Invoice model\n',
    [`${S}/tasks/T02-PLAN.md`]: '# T02: CSV export\n',
    [`${S}/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { pendingActions: ['Add the VAT column'] }),
    ...extra,
  });
}

/** Milestone M001 ("Billing") with its one slice done and summarised, as GSD renders it after complete-slice. */
function milestoneDone(extra: Record<string, string> = {}): Record<string, string> {
  return {
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices', done: true }]),
    [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Invoice model', done: true }]),
    [`${S}/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
    [`${S}/S01-SUMMARY.md`]: '# S01: Invoices\n\n**Invoices are stored and listed.**\n',
    ...extra,
  };
}
/** The VALIDATION file GSD renders from gsd_validate_milestone (renderValidationMarkdown, validate-milestone.ts l.79-84). */
const VALIDATION_PASS = '---\nverdict: pass\nremediation_round: 0\n---\n\n# Milestone Validation: M001\n';
const CONTEXT = '# M001: Billing\n\nCustomers are invoiced monthly.\n';

const db = (state: GSDState): PromptContext => ({ projectKind: 'gsd2-database', root: state.root });
const md = (state: GSDState): PromptContext => ({ projectKind: 'markdown', root: state.root });

describe('prompts of a GSD-2 database project (gsd-workflow tools)', () => {
  it('execute-task names gsd_task_complete with the ids filled in and every required argument of its schema', () => {
    const state = fullState(project());
    const d = defaultDecision(state, db(state))!;
    assert.equal(d.unitType, 'execute-task');
    const call = toolCallOf(d.prompt);
    assert.equal(call.tool, 'gsd_task_complete');
    assertMatchesSchema(call);
    assert.equal(call.args.get('milestoneId'), '"M001"');
    assert.equal(call.args.get('sliceId'), '"S01"');
    assert.equal(call.args.get('taskId'), '"T02"');
    assert.equal(call.args.get('projectDir'), JSON.stringify(state.root));
    assert.match(call.args.get('knownIssues')!, /"Pending actions:"/);
    assert.match(d.prompt, /`gsd-workflow` MCP server/);
    // GSD renders the summary: the prompt must not ask for it to be written by hand.
    assert.doesNotMatch(d.prompt, /then write \.gsd\/\S+T02-SUMMARY\.md/);
    assert.match(d.prompt, /GSD writes \.gsd\/milestones\/M001\/slices\/S01\/tasks\/T02-SUMMARY\.md from it/);
  });

  it('plan-slice names gsd_plan_slice; complete-slice names gsd_slice_complete', () => {
    const planning = fullState(
      writeTree({ [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]) }),
    );
    const plan = defaultDecision(planning, db(planning))!;
    assert.equal(plan.unitType, 'plan-slice');
    const planCall = toolCallOf(plan.prompt);
    assert.equal(planCall.tool, 'gsd_plan_slice');
    assertMatchesSchema(planCall);
    assert.equal(planCall.args.get('sliceId'), '"S01"');

    const done = fullState(
      writeTree({
        [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
        [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Invoice model', done: true }]),
        [`${S}/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
      }),
    );
    const complete = defaultDecision(done, db(done))!;
    assert.equal(complete.unitType, 'complete-slice');
    const completeCall = toolCallOf(complete.prompt);
    assert.equal(completeCall.tool, 'gsd_slice_complete');
    assertMatchesSchema(completeCall);
    assert.equal(completeCall.args.get('sliceTitle'), '"Invoices"');
  });

  it('replan-slice names gsd_replan_slice with the task as blockerTaskId', () => {
    const state = fullState(project());
    const { milestone, slice } = findUnit(state, 'M001', 'S01');
    const d = replanDecision(state, milestone!, slice!, 'T01', 'Task T01 left pending actions.', db(state));
    const call = toolCallOf(d.prompt);
    assert.equal(call.tool, 'gsd_replan_slice');
    assertMatchesSchema(call);
    assert.match(call.args.get('blockerTaskId')!, /^"T01" /);
    assert.equal(d.data?.triggerTaskId, 'T01');
    assert.doesNotMatch(d.prompt, /Write \.gsd\/\S+S01-REPLAN\.md/);
  });

  it('replan-slice: the instruction after a bulleted reason is its own paragraph, not folded into the last bullet', () => {
    const state = fullState(project());
    const { milestone, slice } = findUnit(state, 'M001', 'S01');
    const reason = "Requested from T01's Known Issues. Its pending actions:\n- Split the CSV writer\n- Retry on EBUSY";
    for (const [kind, context] of [['markdown', md(state)], ['database', db(state)]] as const) {
      const tokens = new MarkdownIt().parse(replanDecision(state, milestone!, slice!, 'T01', reason, context).prompt, {});
      // The bullet that holds the reason's last action holds nothing else.
      const items = tokens.filter((t, i) => t.type === 'inline' && tokens[i - 2]?.type === 'list_item_open').map((t) => t.content);
      const itemText = items.find((text) => text.startsWith('Retry on EBUSY'));
      assert.equal(itemText, 'Retry on EBUSY', kind);
    }
  });

  it('a markdown project keeps today\'s prompts exactly', () => {
    const state = fullState(project());
    assert.equal(defaultDecision(state)!.prompt, defaultDecision(state, md(state))!.prompt);
    const prompt = defaultDecision(state)!.prompt;
    const tasks = `${S}/tasks`;
    // Written out here, not rendered from our template: a change to the markdown prompt must show.
    assert.equal(
      prompt,
      'Execute task T02 (CSV export) of slice M001/S01.\n\n' +
        `Read the task plan (${tasks}/T02-PLAN.md) and the slice plan (${S}/S01-PLAN.md). Do the work, run its verification, then write ${tasks}/T02-SUMMARY.md in GSD's task summary format. ` +
        'List any required follow-up under "## Known Issues" as a "Pending actions:" bullet list.\n',
    );
    assert.doesNotMatch(prompt, /gsd_task_complete|gsd-workflow/);
    const { milestone, slice } = findUnit(state, 'M001', 'S01');
    assert.match(replanDecision(state, milestone!, slice!, 'T01', 'why').prompt, /starting with "\*\*Blocker Task:\*\* T01"/);
  });

  it('plan-milestone names gsd_plan_milestone with the milestone\'s title and full slices, and leaves the roadmap to GSD', () => {
    const state = fullState(writeTree({ [`${M}/M001-CONTEXT.md`]: CONTEXT }));
    const d = defaultDecision(state, db(state))!;
    assert.equal(d.unitType, 'plan-milestone');
    const call = toolCallOf(d.prompt);
    assert.equal(call.tool, 'gsd_plan_milestone');
    assertMatchesSchema(call);
    assert.equal(call.args.get('milestoneId'), '"M001"');
    assert.equal(call.args.get('projectDir'), JSON.stringify(state.root));
    assert.equal(call.args.get('title'), '"Billing"');
    // GSD refuses "/", em and en dashes in titles (validation.ts validateTitle) and ranges in depends.
    assert.match(call.args.get('slices')!, /no "\/", "—" or "–"/);
    assert.match(d.prompt, /\(\.gsd\/milestones\/M001\/M001-CONTEXT\.md, if it exists\)/);
    assert.match(d.prompt, /GSD writes \.gsd\/milestones\/M001\/M001-ROADMAP\.md from it\./);
    assert.doesNotMatch(d.prompt, /^Write \.gsd/m);
  });

  it('validate-milestone names gsd_validate_milestone with GSD\'s three verdicts and its remediation round', () => {
    const state = fullState(writeTree(milestoneDone()));
    const d = defaultDecision(state, db(state))!;
    assert.equal(d.unitType, 'validate-milestone');
    const call = toolCallOf(d.prompt);
    assert.equal(call.tool, 'gsd_validate_milestone');
    assertMatchesSchema(call);
    assert.equal(call.args.get('milestoneId'), '"M001"');
    assert.equal(call.args.get('projectDir'), JSON.stringify(state.root));
    assert.deepEqual([...call.args.get('verdict')!.matchAll(/"([\w-]+)"/g)].map((m) => m[1]), VALIDATION_VERDICTS);
    // GSD's own prompt numbers the round 0 first, then the earlier VALIDATION's remediation_round + 1 (auto-prompts.ts l.2748-2751).
    assert.match(call.args.get('remediationRound')!, /^0 for the first validation; if \.gsd\/milestones\/M001\/M001-VALIDATION\.md exists .*remediation_round plus 1$/);
    assert.match(d.prompt, /GSD writes \.gsd\/milestones\/M001\/M001-VALIDATION\.md from it\./);
    assert.doesNotMatch(d.prompt, /`verdict:` \(pass, needs-attention or needs-remediation\) in its frontmatter/);
  });

  it('complete-milestone names gsd_complete_milestone, with verificationPassed true only once the checks pass', () => {
    const state = fullState(writeTree(milestoneDone({ [`${M}/M001-VALIDATION.md`]: VALIDATION_PASS })));
    const d = defaultDecision(state, db(state))!;
    assert.equal(d.unitType, 'complete-milestone');
    const call = toolCallOf(d.prompt);
    assert.equal(call.tool, 'gsd_complete_milestone');
    assertMatchesSchema(call);
    assert.equal(call.args.get('milestoneId'), '"M001"');
    assert.equal(call.args.get('title'), '"Billing"');
    assert.equal(call.args.get('projectDir'), JSON.stringify(state.root));
    // complete-milestone.ts l.145: anything but true is refused; the way out of a failed check is not to call.
    assert.match(call.args.get('verificationPassed')!, /^true, once every check above passed\. If one failed, do not call the tool/);
    assert.match(d.prompt, /GSD writes \.gsd\/milestones\/M001\/M001-SUMMARY\.md from it/);
    assert.match(d.prompt, /the validation \(\.gsd\/milestones\/M001\/M001-VALIDATION\.md\)/);
  });

  it('a milestone without a title asks the agent for one rather than sending an empty title', () => {
    const state = fullState(writeTree({ [`${M}/M001-CONTEXT.md`]: CONTEXT }));
    const untitled = { ...state, milestones: state.milestones.map((m) => ({ ...m, title: '' })) };
    const call = toolCallOf(defaultDecision(untitled, db(state))!.prompt);
    assert.doesNotMatch(call.args.get('title')!, /^""$/);
    assert.match(call.args.get('title')!, /the milestone's title/);
  });

  it('a markdown project keeps today\'s milestone prompts exactly', () => {
    // Today's prompts, as templates.ts had them before the database versions existed.
    const plan = fullState(writeTree({ [`${M}/M001-CONTEXT.md`]: CONTEXT }));
    assert.equal(
      defaultDecision(plan)!.prompt,
      'Plan milestone M001 (Billing) of this GSD project.\n\nWrite .gsd/milestones/M001/M001-ROADMAP.md with its slices in GSD\'s format:\n- [ ] **S01: Title** `risk:high` `depends:[]`\n  > After this: what can be demonstrated.\n',
    );
    const validate = fullState(writeTree(milestoneDone()));
    assert.equal(
      defaultDecision(validate, md(validate))!.prompt,
      'Every slice of milestone M001 is done. Re-check its success criteria against the running software and write .gsd/milestones/M001/M001-VALIDATION.md with a `verdict:` (pass, needs-attention or needs-remediation) in its frontmatter.\n',
    );
    const complete = fullState(writeTree(milestoneDone({ [`${M}/M001-VALIDATION.md`]: VALIDATION_PASS })));
    assert.equal(defaultDecision(complete)!.prompt, 'Milestone M001 is validated. Write .gsd/milestones/M001/M001-SUMMARY.md.\n');
  });

  it('the review loop\'s fix-task leaves the rendered summary alone on a database project, and updates it on a markdown one', () => {
    const values = { taskId: 'T01', taskTitle: 't', sliceRef: 'M001/S01', cycle: '2', maxCycles: '5', lastReviewPath: 'r', issues: '- x', verify: 'npm test' };
    const file = '.gsd/milestones/M001/slices/S01/tasks/T01-SUMMARY.md';
    const markdown = render(FIX_TASK, { ...values, summaryUpdate: summaryUpdate(file, false) });
    assert.match(markdown, /run the task's verification \(npm test\), and update \.gsd\/\S+T01-SUMMARY\.md if what you changed affects it\. Do not write/);
    const database = render(FIX_TASK, { ...values, summaryUpdate: summaryUpdate(file, true) });
    assert.match(database, /leave \.gsd\/\S+T01-SUMMARY\.md as it is \(GSD renders it from its database/);
    assert.doesNotMatch(database, /\{\{/);
  });
});

describe('dispatch on a GSD-2 database project', () => {
  it('detects the project kind and the pending-actions replan names the latest completed task as blockerTaskId', async () => {
    const root = project({ '.gsd/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: pending-actions\n---\n' });
    fs.writeFileSync(path.join(root, '.gsd', 'gsd.db'), emptySqliteDatabase());
    const out = await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS });
    assert.equal(out.decision?.unitType, 'replan-slice');
    assert.equal(out.decision?.source, 'pending-actions');
    const call = toolCallOf(out.decision!.prompt);
    assert.equal(call.tool, 'gsd_replan_slice');
    assertMatchesSchema(call);
    // GSD's handler refuses a blocker task that is not complete: T01 is the completed one, T02 is open.
    assert.match(call.args.get('blockerTaskId')!, /^"T01" /);
    assert.match(out.decision!.prompt, /Add the VAT column/);
  });

  it('carries earlier pending actions into gsd_task_complete\'s knownIssues, not a summary file', async () => {
    const root = project({
      '.gsd/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: pending-actions\n---\n',
      // GSD recorded a replan against T01 already: the hook moves on to T02 and carries T01's actions.
      [`${S}/S01-REPLAN.md`]: '# S01 replan\n\n**Blocker Task:** T01\n\nAdded T02.\n',
    });
    fs.writeFileSync(path.join(root, '.gsd', 'gsd.db'), emptySqliteDatabase());
    const out = await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS });
    assert.equal(out.decision?.unitType, 'execute-task');
    assert.equal(toolCallOf(out.decision!.prompt).tool, 'gsd_task_complete');
    assert.match(out.decision!.prompt, /- T01: Add the VAT column/);
    assert.match(out.decision!.prompt, /`knownIssues` of your gsd_task_complete call/);
    assert.doesNotMatch(out.decision!.prompt, /"## Known Issues" → "Pending actions:" of your summary/);
  });

  it('without gsd.db the same tree dispatches today\'s markdown prompt', async () => {
    const root = project({ '.gsd/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: pending-actions\n---\n' });
    const out = await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS });
    assert.equal(out.decision?.unitType, 'replan-slice');
    assert.match(out.decision!.prompt, /\*\*Blocker Task:\*\* T01/);
    assert.doesNotMatch(out.decision!.prompt, /gsd_replan_slice/);
  });

  it('without gsd.db the milestone trees dispatch today\'s markdown milestone prompts', async () => {
    const plan = writeTree({ [`${M}/M001-CONTEXT.md`]: CONTEXT });
    assert.doesNotMatch((await dispatchNextUnit({ root: plan })).decision!.prompt, /gsd_plan_milestone|gsd-workflow/);
    const validate = writeTree(milestoneDone());
    const v = (await dispatchNextUnit({ root: validate })).decision!;
    assert.equal(v.unitType, 'validate-milestone');
    assert.doesNotMatch(v.prompt, /gsd_validate_milestone|gsd-workflow/);
    const complete = writeTree(milestoneDone({ [`${M}/M001-VALIDATION.md`]: VALIDATION_PASS }));
    const c = (await dispatchNextUnit({ root: complete })).decision!;
    assert.equal(c.unitType, 'complete-milestone');
    assert.doesNotMatch(c.prompt, /gsd_complete_milestone|gsd-workflow/);
  });
});

describe('milestone units on a GSD-2 database project (node:sqlite)', function () {
  this.timeout(20_000);
  before(skipWithoutSqlite);
  const made: Gsd2Project[] = [];
  afterEach(() => {
    for (const p of made.splice(0)) p.remove();
  });
  const keep = (p: Gsd2Project) => (made.push(p), p);

  it('a milestone with no slices in the database dispatches plan-milestone naming gsd_plan_milestone', async () => {
    // What `/gsd new-milestone` leaves: the milestone row and its CONTEXT, no roadmap, no slices.
    const p = keep(new Gsd2Project({ files: { [`${M}/M001-CONTEXT.md`]: CONTEXT } }).milestone({ id: 'M001', title: 'M001: Billing', status: 'active' }));
    const out = await dispatchNextUnit({ root: p.root });
    assert.equal(out.decision?.unitType, 'plan-milestone');
    assert.equal(out.decision?.unitId, 'M001');
    const call = toolCallOf(out.decision!.prompt);
    assert.equal(call.tool, 'gsd_plan_milestone');
    assertMatchesSchema(call);
    assert.equal(call.args.get('title'), '"Billing"');
    assert.equal(call.args.get('projectDir'), JSON.stringify(p.root));
    assert.doesNotMatch(out.decision!.prompt, /^Write \.gsd\/milestones\/M001\/M001-ROADMAP\.md/m);
  });

  it('every slice complete and no validation: validate-milestone naming gsd_validate_milestone', async () => {
    // GSD writes the database before it renders (validate-milestone.ts l.151, the complete-slice
    // pattern): the roadmap rendered before S01 closed still shows it open; the database decides.
    const rendered = milestoneDone({ [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]) });
    const p = keep(
      new Gsd2Project({ files: rendered })
        .milestone({ id: 'M001', title: 'M001: Billing', status: 'active' })
        .slice({ id: 'S01', title: 'Invoices', status: 'complete', sequence: 1 })
        .task({ id: 'T01', title: 'Invoice model', status: 'complete', sequence: 1 }),
    );
    const out = await dispatchNextUnit({ root: p.root });
    assert.equal(out.decision?.unitType, 'validate-milestone');
    const call = toolCallOf(out.decision!.prompt);
    assert.equal(call.tool, 'gsd_validate_milestone');
    assertMatchesSchema(call);
    assert.equal(call.args.get('projectDir'), JSON.stringify(p.root));
    assert.match(out.decision!.prompt, /GSD writes \.gsd\/milestones\/M001\/M001-VALIDATION\.md from it\./);
  });

  it('every slice complete and a passing validation: complete-milestone naming gsd_complete_milestone', async () => {
    const p = keep(
      new Gsd2Project({ files: milestoneDone({ [`${M}/M001-VALIDATION.md`]: VALIDATION_PASS }) })
        .milestone({ id: 'M001', title: 'M001: Billing', status: 'active' })
        .slice({ id: 'S01', title: 'Invoices', status: 'complete', sequence: 1 })
        .task({ id: 'T01', title: 'Invoice model', status: 'complete', sequence: 1 })
        .assessment('M001', 'pass'),
    );
    const out = await dispatchNextUnit({ root: p.root });
    assert.equal(out.decision?.unitType, 'complete-milestone');
    const call = toolCallOf(out.decision!.prompt);
    assert.equal(call.tool, 'gsd_complete_milestone');
    assertMatchesSchema(call);
    assert.equal(call.args.get('title'), '"Billing"');
    assert.match(out.decision!.prompt, /GSD writes \.gsd\/milestones\/M001\/M001-SUMMARY\.md from it/);
  });
});

describe('the database-only units: refine-slice and gate-evaluate (node:sqlite)', function () {
  this.timeout(20_000);
  before(skipWithoutSqlite);
  const made: Gsd2Project[] = [];
  afterEach(() => {
    for (const p of made.splice(0)) p.remove();
  });
  const keep = (p: Gsd2Project) => (made.push(p), p);
  const prefs = (yaml: string) => ({ '.gsd/PREFERENCES.md': `---\nversion: 1\n${yaml}---\n` });
  const SCOPE = 'Only the CSV export of invoices; no PDF.';

  /** S01 done, S02 a sketch with no plan yet: GSD-2's `refining`. */
  const sketched = (files: Record<string, string>) =>
    keep(
      new Gsd2Project({ files })
        .milestone({ id: 'M001', title: 'M001: Billing', status: 'active' })
        .slice({ id: 'S01', title: 'Invoices', status: 'complete', sequence: 1 })
        .task({ id: 'T01', sliceId: 'S01', status: 'complete', sequence: 1 })
        .slice({ id: 'S02', title: 'Export', isSketch: true, sketchScope: SCOPE, sequence: 2 }),
    );

  it('refining with progressive planning on: refine-slice M001/S02, naming gsd_plan_slice and the sketch scope', async () => {
    const p = sketched(prefs('phases:\n  progressive_planning: true\n'));
    const out = await dispatchNextUnit({ root: p.root });
    assert.equal(out.phase, 'refining');
    assert.equal(`${out.decision?.unitType} ${out.decision?.unitId}`, 'refine-slice M001/S02');
    const call = toolCallOf(out.decision!.prompt);
    assert.equal(call.tool, 'gsd_plan_slice');
    assertMatchesSchema(call);
    assert.equal(call.args.get('sliceId'), '"S02"');
    assert.ok(out.decision!.prompt.includes(`the boundary of this plan:\n${SCOPE}\n`));
    assert.match(out.decision!.prompt, /GSD writes \.gsd\/milestones\/M001\/slices\/S02\/S02-PLAN\.md/);
  });

  it('refining with progressive planning off: a full plan-slice, the scope only a hint (GSD\'s downgrade)', async () => {
    for (const files of [{}, prefs('phases:\n  progressive_planning: false\n')]) {
      const out = await dispatchNextUnit({ root: sketched(files).root });
      assert.equal(`${out.decision?.unitType} ${out.decision?.unitId}`, 'plan-slice M001/S02');
      assertMatchesSchema(toolCallOf(out.decision!.prompt));
      assert.ok(out.decision!.prompt.includes(`(a hint: the plan may go beyond it):\n${SCOPE}\n`));
    }
  });

  /** S01 planned with T01 open; Q3 answered, Q4 and Q8 pending, Q5 pending for the task. */
  const gated = (files: Record<string, string>) =>
    keep(
      new Gsd2Project({ files })
        .milestone({ id: 'M001', title: 'M001: Billing', status: 'active' })
        .slice({ id: 'S01', title: 'Invoices', sequence: 1 })
        .task({ id: 'T01', title: 'Invoice model', sequence: 1 })
        .gate('M001', 'S01', 'Q3', 'complete')
        .gate('M001', 'S01', 'Q4')
        .gate('M001', 'S01', 'Q5', 'pending', { scope: 'task', taskId: 'T01' })
        .gate('M001', 'S01', 'Q8'),
    );

  it('evaluating-gates with gate evaluation on: gate-evaluate M001/S01/gates+Q4,Q8, asking gsd_save_gate_result for Q4 only', async () => {
    const p = gated(prefs('gate_evaluation:\n  enabled: true\n'));
    const out = await dispatchNextUnit({ root: p.root });
    assert.equal(out.phase, 'evaluating-gates');
    assert.equal(`${out.decision?.unitType} ${out.decision?.unitId}`, 'gate-evaluate M001/S01/gates+Q4,Q8');
    const call = toolCallOf(out.decision!.prompt);
    assert.equal(call.tool, 'gsd_save_gate_result');
    assertMatchesSchema(call);
    assert.equal(call.args.get('sliceId'), '"S01"');
    assert.deepEqual([...call.args.get('verdict')!.matchAll(/"(\w+)"/g)].map((m) => m[1]), ['pass', 'flag', 'omitted']);
    // Q8 belongs to complete-slice and Q3 is answered: only Q4 is asked.
    assert.match(out.decision!.prompt, /^- Q4: /m);
    assert.doesNotMatch(out.decision!.prompt, /^- Q[38]: /m);
  });

  it('evaluating-gates with gate evaluation off: GSD omits the gates and executes T01, so that is dispatched', async () => {
    const out = await dispatchNextUnit({ root: gated({}).root });
    assert.equal(out.phase, 'evaluating-gates');
    assert.equal(`${out.decision?.unitType} ${out.decision?.unitId}`, 'execute-task M001/S01/T01');
    assert.equal(toolCallOf(out.decision!.prompt).tool, 'gsd_task_complete');
    assert.match(out.decision!.reason ?? '', /gate_evaluation\.enabled/);
  });
});
