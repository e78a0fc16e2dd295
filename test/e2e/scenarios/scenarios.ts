// The scenarios of issue 23, run by one real agent host against the scripted model. Each asserts on
// what the host did: files on disk, the host's own output, and what it sent the model (the hook
// messages it fed back, the tool results it reported) — never on an answer of our CLI.
import * as assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeT02, dispatchNext, installHooks, makeWorld, S02, S02_TASKS, type World } from '../harness/project';
import type { HostRun } from '../harness/run-host';
import type { HostDriver } from '../hosts/driver';
import { startScriptedModel, userTexts, type ModelRequest, type ScriptedModel } from '../scripted-model/server';
import { conversations, hookMessages, isCompaction, toolResults, transcript } from './observe';
import { EXECUTE_PROMPT, reviewLoopScript, SOURCES, STOPPED_EARLY, summary, T02_SOURCE, T02_SUMMARY, type LoopOptions } from './review-loop-script';
import { skipBecause } from '../../shared/skip-because';

const REVIEW_FILE = `${S02_TASKS}/T02-CODE-REVIEW.md`;

/** The review-loop block of T02's sidecar, as on disk. */
function loopState(world: World): { history?: { cycle: number; verdict: string }[]; outcome?: { cycles: number; passed: boolean } } | null {
  const text = world.read(`${S02_TASKS}/T02-HOOKS.md`);
  const fm = text && /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  return fm ? ((parseYaml(fm) as { extensions?: Record<string, any> })?.extensions?.['review-loop'] ?? null) : null;
}

function cycleOf(text: string): number | null {
  const m = /review cycle (\d+)|cycle (\d+) of/.exec(text);
  return m ? Number(m[1] ?? m[2]) : null;
}

interface Ctx {
  driver: HostDriver;
  world: World;
  model: ScriptedModel;
  log: string[];
}

/** A run that the loop needs takes 10-30 s; one stuck in a hook ping-pong is cut off well before CI's patience ends. */
const RUN_LIMIT_MS = 90_000;

async function run(ctx: Ctx, prompt: string, label: string, continueSession = false, timeoutMs = RUN_LIMIT_MS): Promise<HostRun & { events: Record<string, any>[] }> {
  const from = ctx.model.requests.length;
  const r = await ctx.driver.run(ctx.world, ctx.model, prompt, { label, continueSession, timeoutMs });
  ctx.log.push(`  ${label}: ${prompt.length > 60 ? `${prompt.slice(0, 60)}…` : prompt} (exit ${r.code}${r.timedOut ? ', TIMED OUT' : ''}, ${(r.ms / 1000).toFixed(1)} s)`);
  for (const line of transcript(ctx.model.requests.slice(from))) ctx.log.push(line.replace(/^/gm, '    '));
  assert.equal(r.timedOut, false, `${ctx.driver.title} did not finish within its time bound (${label}); stderr: ${r.stderr.slice(-2000)}`);
  assert.equal(r.code, 0, `${ctx.driver.title} exited ${r.code} (${label}); stderr: ${r.stderr.slice(-2000)}`);
  return r;
}

/** The reviewer conversations, in order. */
const reviewers = (m: ScriptedModel) => conversations(m.requests, 'reviewer');
const mains = (m: ScriptedModel) => conversations(m.requests, 'main');

/** The reviewer's attempts on the source: refused by the guard, and the source as the main agent left it. */
function assertReviewerHeldToItsFile(ctx: Ctx, reviewer: ModelRequest, cycle: number): void {
  const results = toolResults(reviewer);
  const edit = results.find((r) => r.name === ctx.driver.tools.toolNames.edit && String(r.input.path ?? r.input.file_path).endsWith(T02_SOURCE));
  assert.ok(edit, `cycle ${cycle}: the reviewer's edit of ${T02_SOURCE} got no result`);
  assert.match(edit.text, /GSD review loop: this is review cycle \d+/, `cycle ${cycle}: the reviewer's edit of ${T02_SOURCE} was not refused by the guard; the host reported: ${edit.text}`);
  const shell = results.find((r) => r.name === ctx.driver.tools.toolNames.shell);
  assert.ok(shell, `cycle ${cycle}: the reviewer's shell command got no result`);
  // Refused by our guard, or by the host itself where the reviewer's tool set has no shell (Copilot CLI
  // gives the gsd-reviewer agent only search, read and edit).
  assert.match(shell.text, /GSD review loop: review cycle \d+ .* is in progress|Tool '\w+' does not exist/s, `cycle ${cycle}: the reviewer's shell redirect was neither refused nor put to the user; the host reported: ${shell.text}`);
  const write = results.find((r) => [ctx.driver.tools.toolNames.write, ctx.driver.tools.toolNames.edit].includes(r.name) && String(r.input.path ?? r.input.file_path).endsWith(REVIEW_FILE));
  assert.ok(write, `cycle ${cycle}: the reviewer's review got no result`);
  assert.doesNotMatch(write.text, /GSD review loop/, `cycle ${cycle}: the review file was refused: ${write.text}`);
}

/** SubagentStart gave the reviewer its prompt: the cycle and the one file it writes. */
function assertReviewerGivenItsPrompt(reviewer: ModelRequest, cycle: number): void {
  const text = reviewer.entries.filter((e) => e.role === 'user').map((e) => (e as { text: string }).text).join('\n') + reviewer.system;
  assert.match(text, new RegExp(`review cycle ${cycle} of at most 5`), `reviewer ${cycle} was not given its review prompt (SubagentStart context)`);
  assert.match(text, /the only file you write is \.gsd\/milestones\/M002-k7q2xz\/slices\/S02\/tasks\/T02-CODE-REVIEW\.md/);
}

/** The source never carried the reviewer's edits. */
function assertSourceUntouchedByReviewer(world: World): void {
  const source = world.read(T02_SOURCE) ?? '';
  assert.doesNotMatch(source, /\/\* reviewed \*\//, `the reviewer's Edit reached ${T02_SOURCE}:\n${source}`);
  assert.doesNotMatch(source, /reviewer was here/, `the reviewer's shell redirect reached ${T02_SOURCE}:\n${source}`);
}

/** The whole loop: review 1 asks for changes, the fix, review 2 approves; the sidecar says passed in 2. */
function assertFullLoop(ctx: Ctx): void {
  const { world, model } = ctx;
  const revs = reviewers(model);
  assert.ok(revs.length >= 2, `expected two reviewer runs (cycles 1 and 2), saw ${revs.length}`);
  revs.slice(0, 2).forEach((rev, i) => {
    assertReviewerGivenItsPrompt(rev, i + 1);
    assertReviewerHeldToItsFile(ctx, rev, i + 1);
  });
  assertSourceUntouchedByReviewer(world);
  // The main agent: Stop handed it review 1, then the fix, then review 2.
  const said = hookMessages(mains(model)[0]);
  const kinds = said.map((t) => (/Review it now/.test(t) ? `review ${cycleOf(t)}` : /Fix the open issues now/.test(t) ? `fix ${cycleOf(t)}` : 'other'));
  assert.deepEqual(kinds.filter((k) => k !== 'other'), ['review 1', 'fix 2', 'review 2'], `the Stop hook's messages to the main agent: ${JSON.stringify(said.map((t) => t.slice(0, 120)))}`);
  assert.equal(world.read(T02_SOURCE), SOURCES.v2, 'the main agent did not apply the fix');
  assert.ok(world.exists(`${S02_TASKS}/T02-CODE-REVIEW-C1.md`) && world.exists(`${S02_TASKS}/T02-CODE-REVIEW-C2.md`), 'the two reviews were not kept per cycle');
  const state = loopState(world);
  assert.deepEqual(state?.history?.map((h) => [h.cycle, h.verdict]), [[1, 'changes-requested'], [2, 'approved']]);
  assert.deepEqual(state?.outcome && { cycles: state.outcome.cycles, passed: state.outcome.passed }, { cycles: 2, passed: true }, 'T02 did not pass in 2');
}

export function defineScenarios(driver: HostDriver, notes: { pending?: Record<string, string> } = {}): void {
  let ctx: Ctx | null = null;

  const start = async (options: LoopOptions, prepare: ((project: string) => void) | undefined, trusted = true, userHooks = false): Promise<Ctx> => {
    const world = makeWorld(prepare);
    installHooks(world, driver.hookHost, { user: userHooks });
    driver.trust(world, trusted);
    const model = await startScriptedModel({ script: reviewLoopScript(driver.tools, world.project, options) });
    ctx = { driver, world, model, log: [] };
    return ctx;
  };

  afterEach(async function () {
    if (!ctx) return;
    const failed = this.currentTest?.state === 'failed';
    console.log(ctx.log.join('\n'));
    await ctx.model.close();
    if (failed) console.log(`    (kept for a look: ${ctx.world.dir})`);
    else ctx.world.dispose();
    ctx = null;
  });

  const scenario = (title: string, body: () => Promise<void>) =>
    it(title, async function () {
      const why = notes.pending?.[title];
      if (why) {
        skipBecause(this, `pending in ${driver.title}: ${why}`);
      }
      await body();
    });

  scenario('full review loop: Stop hands T02 to gsd-reviewer, the guard holds it to its review, cycle 2 approves (passed in 2)', async () => {
    const c = await start({}, beforeT02);
    await run(c, EXECUTE_PROMPT, 'run');
    assertFullLoop(c);
  });

  scenario('pending actions in the task summary lead to replan-slice', async () => {
    const c = await start({ pendingActions: ['Keep CRLF line endings of rules.yaml when writing'], approveAt: 1 }, beforeT02);
    await run(c, EXECUTE_PROMPT, 'run 1');
    const state = loopState(c.world);
    assert.deepEqual(state?.outcome && [state.outcome.cycles, state.outcome.passed], [1, true], 'the review of T02 did not pass in cycle 1');
    // A new session: the host hands the model our SessionStart context, which names the next unit.
    const from = c.model.requests.length;
    await run(c, 'What is next in this project?', 'run 2');
    const first = c.model.requests[from];
    assert.ok(first, 'the second session sent the model nothing');
    const text = first.entries.map((e) => ('text' in e ? e.text : '')).join('\n') + first.system;
    assert.match(text, /Next unit: replan-slice M002-k7q2xz\/S02\b/, `the new session's model was not told to replan S02 (SessionStart context missing or wrong)`);
    assert.match(text, /Keep CRLF line endings of rules\.yaml when writing/, 'the pending action itself was not in the session context');
  });

  scenario('PreCompact writes the CONTINUE checkpoint, and the compaction receives nothing from us', async () => {
    const c = await start({}, beforeT02);
    await run(c, 'Look around the project.', 'run 1');
    const compact = await run(c, '/compact', 'compact', true);
    const checkpoint = c.world.read(`${S02}/S02-CONTINUE.md`);
    assert.ok(checkpoint, 'PreCompact did not write S02-CONTINUE.md');
    assert.match(checkpoint, /status: compacted/);
    assert.match(checkpoint, /## Next Action/);
    const compactions = c.model.requests.filter(isCompaction);
    assert.ok(compactions.length > 0, `${driver.title} sent no compaction request for /compact`);
    for (const r of compactions) {
      const body = JSON.stringify(r.body);
      assert.doesNotMatch(body, /saved the slice's state|S02-CONTINUE|systemMessage/, 'our PreCompact output reached the compaction model');
    }
    assert.doesNotMatch(compact.stdout, /saved the slice's state|systemMessage/, 'our PreCompact output was shown to the user');
  });

  scenario("background reviewer: no Stop pushes the main agent to review while the reviewer runs", async () => {
    const c = await start({ background: true, reviewerDelayMs: 4000 }, beforeT02);
    await run(c, EXECUTE_PROMPT, 'run', false, 60_000);
    const said = hookMessages(mains(c.model)[0]);
    const reviews = said.filter((t) => /Review it now/.test(t)).map((t) => cycleOf(t));
    assert.ok(reviews.length > 0, 'the main agent was never handed the review');
    const perCycle = new Map<number | null, number>();
    for (const cy of reviews) perCycle.set(cy, (perCycle.get(cy) ?? 0) + 1);
    for (const [cy, n] of perCycle) assert.equal(n, 1, `the main agent was told to review cycle ${cy} ${n} times (while its reviewer ran)`);
    // The model started the reviewer once per review handed to it, never a second one for the same cycle.
    const started = mains(c.model)[0].entries.flatMap((e) => (e.role === 'assistant' ? e.toolCalls : [])).filter((t) => t.name === driver.tools.toolNames.subagent);
    assert.equal(started.length, reviews.length, `the main agent started ${started.length} reviewers for ${reviews.length} review(s) handed to it`);
    assert.ok(c.world.exists(`${S02_TASKS}/T02-CODE-REVIEW-C1.md`), 'the background review of cycle 1 was never processed');
    assert.ok(said.some((t) => /Fix the open issues now/.test(t)), 'after the background review the main agent was not handed the fix');
    assertSourceUntouchedByReviewer(c.world);
  });

  scenario('untrusted folder: the reviewer guard still holds (Stop hands the review to gsd-reviewer)', async () => {
    const c = await start({}, beforeT02, false);
    await run(c, EXECUTE_PROMPT, 'run');
    assertSourceUntouchedByReviewer(c.world);
    const revs = reviewers(c.model);
    assert.ok(revs.length >= 1, 'no reviewer ran in the untrusted folder (and nothing told the user why)');
    assertReviewerHeldToItsFile(c, revs[0], 1);
  });

  // T02 done (its code and summary committed), then the user's terminal dispatch: `gsd-review next
  // --apply` records the review and gives its prompt, which the host runs as the gsd-reviewer agent.
  const terminalReview = async (userHooks: boolean) => {
    const c = await start({}, (project) => {
      beforeT02(project);
      fs.writeFileSync(path.join(project, T02_SOURCE), SOURCES.v1);
      fs.writeFileSync(path.join(project, T02_SUMMARY), summary());
    }, false, userHooks);
    const unit = dispatchNext(c.world);
    assert.deepEqual([unit.unitType, unit.unitId], ['review-task', 'M002-k7q2xz/S02/T02'], 'the fixture is not at the review of T02');
    const r = await c.driver.run(c.world, c.model, unit.prompt, { label: 'run', agent: 'gsd-reviewer', timeoutMs: RUN_LIMIT_MS });
    c.log.push(`  run: the review prompt as --agent gsd-reviewer (exit ${r.code}${r.timedOut ? ', TIMED OUT' : ''}, ${(r.ms / 1000).toFixed(1)} s)`);
    for (const line of transcript(c.model.requests)) c.log.push(line.replace(/^/gm, '    '));
    assert.equal(r.timedOut, false);
    const revs = reviewers(c.model);
    assert.ok(revs.length >= 1, 'the host did not run the review as the gsd-reviewer agent');
    const warned = /the reviewer's guard will not run/;
    if (driver.hookHost === 'copilot-cli' && !userHooks) {
      // Copilot CLI runs no repository hook in a folder it does not trust, so the guard cannot hold
      // there (the documented limit, docs/agent-hooks.md): the user is told so in the terminal before
      // the dispatch, and the prompt the reviewer's model received says it too.
      assert.match(unit.stderr, warned, `the terminal dispatch did not warn that the guard will not run: ${unit.stderr}`);
      assert.match(unit.stderr, /install-hooks --host copilot-cli --user/);
      assert.ok(userTexts(revs[0]).some((t) => warned.test(t)), 'the prompt the host sent its model did not carry the warning');
      // What the host did, which the warning was about: it ran none of our hooks (the bridge logs every
      // event it answers), and the reviewer's edit of the source went through.
      assert.equal((c.world.read('.gsd/gsd-review-loop/hooks.jsonl') ?? '').trim(), '', 'a hook of ours ran in the folder Copilot CLI does not trust');
      assert.match(c.world.read(T02_SOURCE) ?? '', /\/\* reviewed \*\//, "the reviewer's edit did not reach the source: then the guard ran after all, and the warning was wrong");
      return;
    }
    assert.doesNotMatch(unit.stderr, warned, 'a warning where the guard holds');
    assertSourceUntouchedByReviewer(c.world);
    assertReviewerHeldToItsFile(c, revs[0], 1);
  };

  scenario('untrusted folder: a review dispatched from the terminal to --agent gsd-reviewer is guarded, or the user is told before it starts that it cannot be', () => terminalReview(false));

  scenario('untrusted folder, hooks also installed for the user (--user): a terminal-dispatched review is guarded', () => terminalReview(true));

  scenario("Stop inside the reviewer is handled as the reviewer's stop", async () => {
    const c = await start({ reviewerStopsFirst: true }, beforeT02);
    await run(c, EXECUTE_PROMPT, 'run');
    const revs = reviewers(c.model);
    assert.ok(revs.length >= 1, 'no reviewer ran');
    assertReviewerGivenItsPrompt(revs[0], 1);
    const toReviewer = hookMessages(revs[0]);
    assert.ok(revs[0].entries.some((e) => e.role === 'assistant' && e.text === STOPPED_EARLY), 'the reviewer did not stop early');
    assert.ok(toReviewer.some((t) => /write \S+T02-CODE-REVIEW\.md for review cycle 1 .* before stopping/.test(t)), `the reviewer stopping without its review was not told to write it: ${JSON.stringify(toReviewer)}`);
    assert.ok(!toReviewer.some((t) => /Fix the open issues now|Review it now/.test(t)), `the main agent's Stop answer was given to the reviewer: ${JSON.stringify(toReviewer)}`);
    assertFullLoop(c);
  });

}
