// VS Code's Local agent running our hooks live: the real workbench (code-server, the latest VS Code:
// agent hooks need a recent one), its built-in Copilot Chat in Agent mode with a `customendpoint`
// model served by our scripted model on 127.0.0.1, offline, no sign-in. The review loop runs end to
// end in one chat: the main agent ends its turn, our Stop hook keeps it working, it hands the review
// to our gsd-reviewer custom agent through `runSubagent`, whose own PreToolUse hook (agent file) holds
// it to its review file; Stop then keeps the main agent on the fix, and review cycle 2 approves.
// Every assertion reads what the host did: files on disk, what VS Code sent the model (hook
// messages, tool results), VS Code's own hook log, and the chat view (screenshots).
// docs/vscode-agent-live.md says how to run it and what it covers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { startScriptedModel, requestText, type ModelRequest, type ScriptedModel } from './scripted-model/server';
import { reviewLoopScript, REVIEWER_AGENT, REVIEWER_MARK, type LoopRecord } from './vscode-agent/loop-script';
import { HOOK_STATE_FILE, prepareProject, readProjectFile, repoRoot, REVIEW_FILE, SOURCE_FILE } from './vscode-agent/project';
import { chatSettled, chatText, expandSteps, newChat, openAgentChat, sendPrompt, startAgentWorkbench, waitUntil, type AgentWorkbench } from './vscode-agent/workbench';

/** The whole loop takes 1-3 minutes on a loaded machine; a stuck one is cut off well before CI gives up. */
const LOOP_LIMIT_MS = 6 * 60_000;
const artifactsDir = path.resolve(process.env.GSD_VSCODE_AGENT_ARTIFACTS ?? path.join(repoRoot, 'test-artifacts', 'vscode-agent'));

interface Versions {
  resolveMatrix(spec: string, cacheDir: string): Promise<{ version: string; vscode: string }[]>;
}

/** The review-loop block of T02's sidecar as on disk. */
function loopState(root: string): { history?: { cycle: number; verdict: string }[]; outcome?: { cycles: number; passed: boolean } } | null {
  const text = readProjectFile(root, HOOK_STATE_FILE);
  const fm = text && /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  return fm ? ((parseYaml(fm) as { extensions?: Record<string, never> })?.extensions?.['review-loop'] ?? null) : null;
}

/** The hook runs VS Code logged: event and the JSON it printed as input/output, in order. */
function hookRuns(log: string): { event: string; kind: 'Input' | 'Output'; json: Record<string, unknown> }[] {
  const out: { event: string; kind: 'Input' | 'Output'; json: Record<string, unknown> }[] = [];
  for (const m of log.matchAll(/\[(\w+)\] (Input|Output): (\{.*\})$/gm)) {
    try {
      out.push({ event: m[1], kind: m[2] as 'Input' | 'Output', json: JSON.parse(m[3]) as Record<string, unknown> });
    } catch {
      // a line cut short: not counted
    }
  }
  return out;
}

describe('VS Code Local agent, live in the real workbench', function () {
  this.timeout(LOOP_LIMIT_MS + 5 * 60_000);
  let work: string;
  let root: string;
  let model: ScriptedModel;
  let wb: AgentWorkbench | undefined;
  let sourceBefore: string;
  const record: LoopRecord = { attempts: [], reviewWritten: {}, reviewerSawCycle: [], mainFixResult: null, reviewOnReturn: [], mainEndedAfterReview: 0 };
  let loopRequests: ModelRequest[] = [];

  before(async function () {
    if (!fs.existsSync(path.join(repoRoot, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run `node esbuild.mjs` first');
    const versions = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'vscode-host', 'versions.mjs')).href)) as Versions;
    const { cacheDir } = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'vscode-host', 'code-server-install.mjs')).href)) as { cacheDir: string };
    const [target] = await versions.resolveMatrix(process.env.GSD_VSCODE_AGENT_CODE_SERVER ?? 'latest', cacheDir);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-vscode-agent-'));
    root = prepareProject(path.join(work, 'ledgerline'));
    sourceBefore = readProjectFile(root, SOURCE_FILE) ?? '';
    fs.rmSync(artifactsDir, { recursive: true, force: true });
    // Screenshots at the loop's moments, taken while the chat runs (never awaited by the script).
    const moment = (name: string) => void wb?.screenshot(name).catch(() => undefined);
    model = await startScriptedModel({ script: reviewLoopScript(root, record, moment), model: 'mock-model' });
    console.log(`      (code-server ${target.version} = VS Code ${target.vscode}; project ${root}; artifacts ${path.relative(repoRoot, artifactsDir)})`);
    wb = await startAgentWorkbench({ folder: root, modelUrl: model.url, work, artifactsDir, version: target.version });
    await openAgentChat(wb.page).catch(async (error) => {
      await wb?.screenshot('no-model');
      throw error;
    });
    await wb.screenshot('chat-ready');
    await sendPrompt(wb.page, 'T02 is implemented. Wrap it up.');
    // The loop is over when the main agent, back from the reviewer's approval, ended its turn and
    // VS Code finished every Stop hook it started.
    await waitUntil('review cycle 2 and the main agent\'s last turn', () => record.mainEndedAfterReview >= 2, LOOP_LIMIT_MS).catch(async (error) => {
      await wb?.screenshot('loop-timed-out');
      throw error;
    });
    const started = (event: string) => (wb!.hooksLog().match(new RegExp(`\\[${event}\\] Executing`, 'g')) ?? []).length;
    const completed = (event: string) => (wb!.hooksLog().match(new RegExp(`\\[${event}\\] Completed`, 'g')) ?? []).length;
    await waitUntil('the last Stop hook', () => started('Stop') > 0 && started('Stop') === completed('Stop'), 60_000);
    await chatSettled(wb.page);
    await wb.screenshot('loop-done');
    loopRequests = [...model.requests];
  });

  after(async function () {
    // What VS Code sent the model, request by request: the first thing to read when a case fails.
    if (model) {
      fs.mkdirSync(artifactsDir, { recursive: true });
      fs.writeFileSync(path.join(artifactsDir, 'model-requests.json'), JSON.stringify(model.requests.map(({ body: _body, ...r }) => r), null, 1));
    }
    await wb?.stop();
    await model?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('VS Code ran our SessionStart and UserPromptSubmit hooks and gave the model their context', () => {
    const first = loopRequests[0];
    assert.ok(first, 'the model got no request');
    assert.match(requestText(first), /Additional instructions from hooks: GSD project: phase executing\.\nNext unit: review-task M002-k7q2xz\/S02\/T02/);
  });

  it('Stop kept the main agent working and it handed the review to our gsd-reviewer agent (runSubagent)', () => {
    const handOff = loopRequests.find((r) => r.entries.some((e) => e.role === 'assistant' && e.toolCalls.some((c) => c.name === 'runSubagent' && c.input.agentName === REVIEWER_AGENT)));
    assert.ok(handOff, 'the main agent never called runSubagent for the reviewer');
    assert.match(requestText(handOff), /You were about to complete but a hook blocked you with the following message: "GSD review loop: review cycle 1 of 5 for T02/);
    assert.deepEqual(record.reviewerSawCycle, [1, 2], 'the reviewer subagent did not get the review prompt (SubagentStart) of cycles 1 and 2');
  });

  it('the reviewer\'s edit of a source file is denied by PreToolUse: the tool never ran and the model got the denial', () => {
    const edit = record.attempts.find((a) => a.tool === 'replace_string_in_file');
    assert.ok(edit, 'the reviewer\'s edit got no tool result');
    assert.match(edit.result, /GSD review loop: this is review cycle 1 of M002-k7q2xz\/S02\/T02/);
    assert.equal(edit.sourceAfter, sourceBefore, `${SOURCE_FILE} changed although the edit was denied`);
  });

  it('the reviewer\'s vscode_renameSymbol (edit tool set, renames across files) is denied too', () => {
    const rename = record.attempts.find((a) => a.tool === 'vscode_renameSymbol');
    assert.ok(rename, 'the reviewer\'s rename got no tool result');
    assert.equal(rename.sourceAfter, sourceBefore, `${SOURCE_FILE} changed: the rename ran`);
    assert.match(rename.result, /GSD review loop: this is review cycle 1/, `the rename was not refused by the guard; VS Code reported: ${rename.result}`);
  });

  it('the reviewer\'s shell redirect is refused by VS Code (no terminal tool in its agent file), and nothing ran', () => {
    const reviewer = loopRequests.find((r) => requestText(r).includes(REVIEWER_MARK));
    assert.ok(reviewer, 'no request of the reviewer');
    assert.ok(!reviewer.tools.includes('run_in_terminal'), 'VS Code offered the reviewer run_in_terminal, which its agent file does not name');
    const shell = record.attempts.find((a) => a.tool === 'run_in_terminal');
    assert.ok(shell, 'the reviewer\'s shell call got no tool result');
    assert.match(shell.result, /Tool run_in_terminal is currently disabled/);
    assert.equal(shell.sourceAfter, sourceBefore, `${SOURCE_FILE} changed: the redirect ran`);
  });

  it('the reviewer wrote its review file (allowed), and VS Code ran SubagentStop, not Stop, when it finished', () => {
    assert.ok(record.reviewWritten[1], 'the reviewer did not write the review of cycle 1');
    assert.match(record.reviewWritten[1].result, /successfully edited/);
    // Read when runSubagent returned: VS Code's create_file may still be saving right after the call.
    assert.match(record.reviewOnReturn[0] ?? '', /verdict: changes-requested/);
    const runs = hookRuns(wb!.hooksLog());
    const subStops = runs.filter((h) => h.event === 'SubagentStop' && h.kind === 'Input');
    assert.equal(subStops.length, 2, 'VS Code did not run SubagentStop once per reviewer run');
    assert.ok(subStops.every((h) => h.json.agent_type === REVIEWER_AGENT), `SubagentStop named another agent: ${JSON.stringify(subStops.map((h) => h.json.agent_type))}`);
  });

  it('Stop kept the main agent on the fix, and it made it', () => {
    const fix = loopRequests.find((r) => /Fix the open issues now/.test(requestText(r)));
    assert.ok(fix, 'VS Code never told the main agent to fix the open issues');
    assert.ok(record.mainFixResult !== null, 'the main agent\'s fix got no tool result');
    assert.match(readProjectFile(root, SOURCE_FILE) ?? '', /No rule matched: the transaction stays uncategorised\./);
  });

  it('review cycle 2 approved: the task passed in 2 cycles (T02-HOOKS.md on disk)', () => {
    assert.match(record.reviewOnReturn[1] ?? '', /verdict: approved/);
    const state = loopState(root);
    assert.deepEqual(state?.outcome ? { cycles: state.outcome.cycles, passed: state.outcome.passed } : null, { cycles: 2, passed: true });
    assert.ok(fs.existsSync(path.join(root, REVIEW_FILE)));
  });

  it('the chat view shows the hooks at work', async () => {
    await expandSteps(wb!.page);
    // The expanded steps are drawn after the click: read the view once they are there (or after 15 s).
    const blocks = async () => (await chatText(wb!.page)).match(/Blocked by Stop hook/g)?.length ?? 0;
    await waitUntil('the chat view to draw the expanded steps', async () => (await blocks()) >= 3, 15_000).catch(() => undefined);
    const shown = await chatText(wb!.page);
    await wb!.screenshot('chat-view-steps');
    assert.equal(shown.match(/Blocked by Stop hook/g)?.length, 3, `the chat view shows ${shown.match(/Blocked by Stop hook/g)?.length ?? 0} Stop blocks, not 3 (review 1, fix, review 2):\n${shown}`);
    assert.equal(shown.match(/Gsd-reviewer/gi)?.length, 2, `the chat view does not show two gsd-reviewer runs:\n${shown}`);
  });

  it('pending actions lead to replan-slice: a new chat starts with it as the next unit', async () => {
    const from = model.requests.length;
    await newChat(wb!.page);
    await openAgentChat(wb!.page);
    await sendPrompt(wb!.page, 'What is next in this project?');
    await waitUntil('the new chat\'s request', () => model.requests.length > from, 90_000);
    await chatSettled(wb!.page);
    await wb!.screenshot('new-chat-replan');
    const request = model.requests[from];
    assert.match(requestText(request), /Next unit: replan-slice M002-k7q2xz\/S02 \(decided by pending-actions\)/);
  });

  // Pending, with the reason seen live: VS Code 1.139.1 runs PreCompact from its history summariser
  // only with the hooks of an agent request (automatic summarisation when the token budget is
  // exceeded); `/compact` summarises the history (the summary request reaches the model) without
  // running PreCompact at all (nothing in its hooks log). Reaching the budget takes a conversation
  // of ~128k tokens, which this suite does not build.
  it('PreCompact writes the checkpoint and the compaction gets nothing from us (needs automatic summarisation; /compact runs no PreCompact in VS Code 1.139.1)');
});
