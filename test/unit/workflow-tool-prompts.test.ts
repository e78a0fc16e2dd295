// On a GSD-2 database project the execute-task, plan-slice, complete-slice and replan-slice prompts
// tell the agent which tool of GSD's `gsd-workflow` MCP server to call, with which arguments; a
// markdown project keeps today's prompts byte for byte.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { defaultDecision, replanDecision } from '../../src/core/dispatch/default-dispatch';
import { dispatchNextUnit } from '../../src/core/dispatch/dispatch';
import { FIX_TASK, render, summaryUpdate } from '../../src/core/hooks/builtin/review-loop/review-prompts';
import { findUnit } from '../../src/core/model/find-unit';
import type { GSDState } from '../../src/core/model/types';
import type { PromptContext } from '../../src/core/prompts/prompt-context';
import { PROMPTS } from '../../src/core/prompts/templates';
import { emptySqliteDatabase } from './helpers/empty-sqlite';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';
import { fullState } from './helpers/state';

// The tools' argument schemas as GSD-2 declares them: gsd-build/gsd-2 at commit
// 76568edc0d7cc3700e8841649328449115ee5544, packages/mcp-server/src/workflow-tools.ts
// (`taskCompleteParams` l.1417, `replanSliceParams` l.1260, `planSliceParams` l.1170,
// `sliceCompleteParams` l.1282; tool names registered with server.tool(...) l.1705, 1763, 1784, 1931).
// `required` = not `.optional()` there; `projectDir` is optional everywhere (defaults to the server's cwd).
interface ToolSchema {
  required: string[];
  optional: string[];
  /** The fields of the objects of a list argument (tasks, updatedTasks). */
  items?: { arg: string; required: string[]; optional: string[] };
}
const GSD2_TOOLS: Record<string, ToolSchema> = {
  gsd_task_complete: {
    required: ['taskId', 'sliceId', 'milestoneId', 'oneLiner', 'narrative', 'verification'],
    optional: ['projectDir', 'deviations', 'knownIssues', 'keyFiles', 'keyDecisions', 'blockerDiscovered', 'escalation', 'verificationEvidence'],
  },
  gsd_replan_slice: {
    required: ['milestoneId', 'sliceId', 'blockerTaskId', 'blockerDescription', 'whatChanged', 'updatedTasks', 'removedTaskIds'],
    optional: ['projectDir'],
    items: { arg: 'updatedTasks', required: ['taskId', 'title', 'description', 'estimate', 'files', 'verify', 'inputs', 'expectedOutput'], optional: ['fullPlanMd'] },
  },
  gsd_plan_slice: {
    required: ['milestoneId', 'sliceId', 'goal', 'tasks'],
    optional: ['projectDir', 'successCriteria', 'proofLevel', 'integrationClosure', 'observabilityImpact'],
    items: { arg: 'tasks', required: ['taskId', 'title', 'description', 'estimate', 'files', 'verify', 'inputs', 'expectedOutput'], optional: ['observabilityImpact'] },
  },
  gsd_slice_complete: {
    required: ['sliceId', 'milestoneId', 'sliceTitle', 'oneLiner', 'narrative', 'verification', 'uatContent'],
    optional: [
      'projectDir', 'deviations', 'knownLimitations', 'followUps', 'keyFiles', 'keyDecisions', 'patternsEstablished', 'observabilitySurfaces',
      'provides', 'requirementsSurfaced', 'drillDownPaths', 'affects', 'requirementsAdvanced', 'requirementsValidated', 'requirementsInvalidated',
      'filesModified', 'requires',
    ],
  },
};

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
  if (schema.items) {
    const text = call.args.get(schema.items.arg)!;
    const fields = /\{([^}]*)\}/.exec(text)![1].split(',').map((f) => f.trim());
    assert.deepEqual(fields.sort(), [...schema.items.required].sort(), `${schema.items.arg}: the fields each object needs`);
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

  it('a markdown project keeps today\'s prompts exactly', () => {
    const state = fullState(project());
    assert.equal(defaultDecision(state)!.prompt, defaultDecision(state, md(state))!.prompt);
    const prompt = defaultDecision(state)!.prompt;
    const tasks = `${S}/tasks`;
    assert.equal(
      prompt,
      render(PROMPTS['execute-task'], {
        taskId: 'T02',
        taskTitle: 'CSV export',
        milestoneId: 'M001',
        sliceId: 'S01',
        taskPlanPath: `${tasks}/T02-PLAN.md`,
        slicePlanPath: `${S}/S01-PLAN.md`,
        taskSummaryPath: `${tasks}/T02-SUMMARY.md`,
      }),
    );
    assert.doesNotMatch(prompt, /gsd_task_complete|gsd-workflow/);
    const { milestone, slice } = findUnit(state, 'M001', 'S01');
    assert.match(replanDecision(state, milestone!, slice!, 'T01', 'why').prompt, /starting with "\*\*Blocker Task:\*\* T01"/);
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
});
