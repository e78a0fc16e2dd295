// The review panel's tree against what VS Code's tree view needs of it, with the real provider and
// nodes over real projects (the sample and the CRLF legacy fixture, as in the multi-root window).
//
// What VS Code needs (src/vs/workbench/api/common/extHostTreeViews.ts, 1.100 to 1.139): an item id
// names one element in the whole tree (a second element under the same id replaces the first in the
// extension host's caches), getParent answers the element whose getChildren returned the node, and a
// refresh names elements the view got from getChildren. And what the workbench's TreeDataSource
// (src/vs/workbench/browser/parts/views/treeView.ts) needs: it fetches the children of all the nodes
// it expands in one turn as one batch; when the answer comes back before the batch's later timers
// have fired, the expanded nodes just received open a new batch and a later node of the first batch
// is answered from it (microsoft/vscode pull request 243911). So in each batch only the last node
// may have children that open expanded.
import './helpers/use-vscode-stand-in';
import * as assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { locateProject } from '../../src/core/state/locate-project';
import { openLocatedProject } from '../../src/core/project/open-project';
import { stateChanges } from '../../src/core/state/state-changes';
import type { DispatchOutcome } from '../../src/core/dispatch/dispatch-outcome';
import type { GsdWorkspace, NextUnitChange, ProjectChange, ProjectHandle } from '../../src/vscode/workspace/gsd-workspace';
import type { PanelNode } from '../../src/vscode/panel/panel-node';
import type { PanelView, RevealOptions } from '../../src/vscode/panel/first-unfold';
import { ReviewPanelProvider } from '../../src/vscode/panel/review-panel-provider';
import { copyFixture, copySample } from './helpers/gsd-tree';
import { EventEmitter, TreeItemCollapsibleState } from './helpers/vscode-stand-in';

/** The workspace model as the provider uses it, over real project engines. */
class Workspace {
  readonly projects = new EventEmitter<void>();
  readonly stateChange = new EventEmitter<ProjectChange>();
  readonly nextUnit_ = new EventEmitter<NextUnitChange>();
  readonly hookEvent = new EventEmitter<ProjectHandle>();
  readonly onDidChangeProjects = this.projects.event;
  readonly onDidChangeState = this.stateChange.event;
  readonly onDidChangeNextUnit = this.nextUnit_.event;
  readonly onDidLogHookEvent = this.hookEvent.event;
  readonly next = new Map<ProjectHandle, DispatchOutcome>();
  /** Projects still being read (the real workspace reads them a slice per step after activation). */
  readonly reading = new Set<ProjectHandle>();
  readingStarted = 0;
  constructor(readonly handles: ProjectHandle[]) {}
  list() {
    return this.handles;
  }
  state(h: ProjectHandle) {
    return h.engine.state();
  }
  shownState(h: ProjectHandle) {
    return this.reading.has(h) ? h.engine.firstLook().state : h.engine.state();
  }
  isReading(h: ProjectHandle) {
    return this.reading.has(h);
  }
  startReading() {
    this.readingStarted++;
  }
  /** The panel starts the read itself (no wait after activation): counted. */
  readingLeftToView = 0;
  leaveReadingToView() {
    this.readingLeftToView++;
  }
  /** The read ends as the workspace's does: the full state announced like a change from nothing. */
  read(h: ProjectHandle) {
    while (h.engine.readStep());
    this.reading.delete(h);
    this.stateChange.fire({ handle: h, changes: stateChanges(null, h.engine.state()), paths: [] });
  }
  nextUnit(h: ProjectHandle) {
    return this.next.get(h);
  }
  isReadOnly(h: ProjectHandle) {
    return h.engine.readOnly;
  }
  /** A file of a project changed on disk: the engine reads it again and the change is announced. */
  edit(h: ProjectHandle, rel: string, edit: (text: string) => string) {
    const before = h.engine.state();
    const file = path.join(h.project.gsdDir, rel);
    fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')));
    h.engine.changed([file]);
    this.stateChange.fire({ handle: h, changes: stateChanges(before, h.engine.state()), paths: [file] });
  }
}

function handle(name: string, root: string): ProjectHandle {
  const project = locateProject(root)!;
  const engine = openLocatedProject(project, { reading: 'incremental' });
  return { folder: { name, index: 0, uri: { fsPath: root } }, project, engine } as unknown as ProjectHandle;
}

async function setUp(names: Array<'ledgerline' | 'flight-sim'>, reading = false) {
  const handles = names.map((n) => (n === 'ledgerline' ? handle(n, copySample()) : handle(n, copyFixture('legacy-flight-sim'))));
  const ws = new Workspace(handles);
  if (reading) for (const h of handles) ws.reading.add(h);
  if (!reading) for (const h of handles) ws.next.set(h, await h.engine.preview());
  const panel = new ReviewPanelProvider(ws as unknown as GsdWorkspace);
  const told: Array<PanelNode | PanelNode[] | undefined> = [];
  panel.onDidChangeTreeData((e) => told.push(e));
  return { ws, panel, told, ledgerline: handles[names.indexOf('ledgerline')], flightSim: handles[names.indexOf('flight-sim')] };
}

/** Waits until the provider stops telling VS Code (with several projects it tells one project at a time). */
async function settled(told: unknown[]): Promise<void> {
  let n = -1;
  while (n !== told.length) {
    n = told.length;
    await new Promise((r) => setTimeout(r, 400));
  }
}

interface Walked {
  node: PanelNode;
  id: string;
  /** The element whose getChildren returned it (undefined at the top level). */
  under: PanelNode | undefined;
}

/** The whole tree as VS Code may fetch it: every node's children, top down. */
function walk(panel: ReviewPanelProvider): Walked[] {
  const out: Walked[] = [];
  const visit = (under: PanelNode | undefined) => {
    for (const node of panel.getChildren(under)) {
      out.push({ node, id: panel.getTreeItem(node).id!, under });
      visit(node);
    }
  };
  visit(undefined);
  return out;
}

/** One walk's checks, and the same parent for an id across every walk so far (`parents`). */
function checkWalk(panel: ReviewPanelProvider, parents: Map<string, string | null>): Walked[] {
  const walked = walk(panel);
  const seen = new Map<string, PanelNode>();
  for (const w of walked) {
    assert.ok(w.id, 'every item has an id');
    assert.ok(!seen.has(w.id), `id ${w.id} names two nodes of one tree`);
    seen.set(w.id, w.node);
    assert.equal(panel.getParent(w.node), w.under, `getParent of ${w.id} is the node whose getChildren returned it`);
    const parent = w.under ? panel.getTreeItem(w.under).id! : null;
    if (parents.has(w.id)) assert.equal(parents.get(w.id), parent, `${w.id} moved from ${parents.get(w.id)} to ${parent}`);
    parents.set(w.id, parent);
  }
  return walked;
}

/**
 * The batches in which VS Code fetches children when the view opens: the top level, then the
 * children of every node whose item says Expanded, level by level. The ids of each batch.
 */
function openingBatches(panel: ReviewPanelProvider): Array<Array<{ id: string; expandedChildren: number }>> {
  const batches: Array<Array<{ id: string; expandedChildren: number }>> = [];
  const expandedChildren = (n: PanelNode | undefined) => panel.getChildren(n).filter((c) => panel.getTreeItem(c).collapsibleState === TreeItemCollapsibleState.Expanded);
  let batch: Array<PanelNode | undefined> = [undefined];
  while (batch.length) {
    batches.push(batch.map((n) => ({ id: n ? panel.getTreeItem(n).id! : '(top level)', expandedChildren: expandedChildren(n).length })));
    batch = batch.flatMap((n) => expandedChildren(n));
  }
  return batches;
}

function assertNoBatchAnswersAnother(panel: ReviewPanelProvider) {
  const batches = openingBatches(panel);
  for (const batch of batches) {
    const early = batch.slice(0, -1).filter((n) => n.expandedChildren > 0);
    assert.deepEqual(early.map((n) => n.id), [], `in the batch ${JSON.stringify(batch.map((n) => n.id))} only the last node may have children that open expanded`);
  }
  return batches;
}

describe('review panel tree (provider and nodes, as VS Code fetches them)', () => {
  it('two projects: ids unique across both, getParent is the fetching node, parents stable across refreshes', async () => {
    const { ws, panel, told, ledgerline, flightSim } = await setUp(['ledgerline', 'flight-sim']);
    const parents = new Map<string, string | null>();
    // Fetched before the view is open (tests and reveal do this), then again as the view would.
    const first = checkWalk(panel, parents);
    assert.deepEqual(first.filter((w) => !w.under).map((w) => w.id), [`gsd:${ledgerline.project.gsdDir}`, `gsd:${flightSim.project.gsdDir}`]);
    checkWalk(panel, parents);
    const known = () => new Map(walk(panel).map((w) => [w.id, w.node]));

    // A task ticked in flight-sim: a refresh of its nodes, each the element the tree has.
    const beforeTick = known();
    ws.edit(flightSim, 'milestones/M001-FLIGHT-SIM/slices/S02-CONTROLS/S02-CONTROLS-PLAN.md', (t) => t.replace('- [ ] **T01', '- [x] **T01'));
    await settled(told);
    const fired = told.splice(0).flatMap((e) => (e === undefined ? [] : Array.isArray(e) ? e : [e]));
    assert.ok(fired.length > 0, 'the tick refreshes nodes');
    for (const n of fired) assert.equal(beforeTick.get(n.id), n, `refreshed ${n.id} is the element VS Code got`);
    checkWalk(panel, parents);

    // flight-sim's only pending action goes: its group leaves the tree (a bigger refresh).
    ws.edit(flightSim, 'milestones/M001-FLIGHT-SIM/slices/S01-PHYSICS/tasks/T02-GRAVITY-SUMMARY.md', (t) => t.replace('- Tune the stall angle for the glider', ''));
    await settled(told);
    // Its root alone is refreshed, not the whole tree: one batch of one when VS Code fetches again.
    assert.deepEqual(told.splice(0).map((e) => (Array.isArray(e) ? e.map((n) => n.id) : e)), [[`gsd:${flightSim.project.gsdDir}`]]);
    const after = checkWalk(panel, parents);
    assert.ok(!after.some((w) => w.id === `gsd:${flightSim.project.gsdDir}#pending`), 'the group went');
    assert.ok(after.some((w) => w.id === `gsd:${ledgerline.project.gsdDir}#pending`), "ledgerline's group stays");
  });

  it('a unit taken out of the state leaves the panel: its nodes are dropped, and no refresh names them to VS Code', async () => {
    const { ws, panel, told, ledgerline } = await setUp(['ledgerline']);
    const gsdDir = ledgerline.project.gsdDir;
    const t03 = `gsd:${gsdDir}/M002-k7q2xz/S02/T03`;
    // The whole tree fetched, as VS Code does with everything open.
    assert.ok(walk(panel).some((w) => w.id === t03));
    // T03 is taken out of its slice plan.
    ws.edit(ledgerline, 'milestones/M002-k7q2xz/slices/S02/S02-PLAN.md', (t) => t.replace(/- \[ \] \*\*T03[^\n]*\n(?: {2}-[^\n]*\n)*/, ''));
    assert.ok(!ledgerline.engine.state().milestones.some((m) => m.slices.some((s) => s.tasks.some((t) => t.id === 'T03'))), 'the edit took T03 out of the state');
    await settled(told);
    const named = told.splice(0).flatMap((e) => (e === undefined ? [] : Array.isArray(e) ? e : [e])).map((n) => n.id);
    assert.ok(named.length > 0, 'the change refreshes the slice');
    assert.ok(!named.includes(t03), `a refresh names the removed task's node: ${named.join(', ')}`);
    assert.ok(!walk(panel).some((w) => w.id === t03), 'the tree no longer shows T03');
    assert.equal(panel.find(t03), undefined, "the removed task's node is still kept");
  });

  it("two projects: each refresh VS Code gets holds one project's nodes, also for Refresh and a change in both at once", async () => {
    const { ws, panel, told, ledgerline, flightSim } = await setUp(['ledgerline', 'flight-sim']);
    const before = new Map(walk(panel).map((w) => [w.id, w.node]));
    const project = (id: string) => (id.startsWith(`gsd:${ledgerline.project.gsdDir}`) ? 'ledgerline' : id.startsWith(`gsd:${flightSim.project.gsdDir}`) ? 'flight-sim' : id);
    /** Waits until the fires stop (they come one project at a time), then the projects each fire named. */
    const fires = async () => {
      await settled(told);
      return told.splice(0).map((e) => {
        assert.ok(e !== undefined, 'no whole-tree refresh');
        const nodes = Array.isArray(e) ? e : [e];
        for (const node of nodes) assert.equal(before.get(node.id), node, `${node.id} is the element VS Code got`);
        return [...new Set(nodes.map((node) => project(node.id)))];
      });
    };
    // The Refresh command: the same projects found again, then each one's state read anew.
    ws.projects.fire();
    for (const h of ws.handles) ws.stateChange.fire({ handle: h, changes: { project: true, structure: true, milestones: new Set(), slices: new Set() }, paths: [] });
    assert.deepEqual(await fires(), [['ledgerline'], ['flight-sim']]);
    // A task ticked in each project in the same turn: still one refresh each (in the workspace's order).
    ws.edit(flightSim, 'milestones/M001-FLIGHT-SIM/slices/S02-CONTROLS/S02-CONTROLS-PLAN.md', (t) => t.replace('- [ ] **T02', '- [x] **T02'));
    ws.edit(ledgerline, 'milestones/M002-k7q2xz/slices/S02/S02-PLAN.md', (t) => t.replace('- [ ] **T03', '- [x] **T03'));
    assert.deepEqual(await fires(), [['ledgerline'], ['flight-sim']]);
  });

  it('two projects: no batch VS Code fetches on opening the view can be answered with another batch', async () => {
    const { panel } = await setUp(['ledgerline', 'flight-sim']);
    const batches = assertNoBatchAnswersAnother(panel);
    assert.equal(batches[1].length, 2, 'both project roots open expanded');
  });

  it('while the project is read: its milestones and open slices at once, other slices "reading…", the pending actions group after the read', async () => {
    const { ws, panel, told, ledgerline } = await setUp(['ledgerline'], true);
    const look = ledgerline.engine.firstLook().state;
    const parents = new Map<string, string | null>();
    const first = checkWalk(panel, parents);
    const description = (w: Walked) => String(panel.getTreeItem(w.node).description ?? '');
    const pendingId = `gsd:${ledgerline.project.gsdDir}#pending`;
    assert.ok(!first.some((w) => w.id === pendingId), 'no pending actions group while its count would be the active slice alone');
    const top = first.filter((w) => w.under === undefined).map((w) => String(panel.getTreeItem(w.node).label));
    assert.deepEqual(top.filter((l) => /^M\d{3}/.test(l)).map((l) => l.split(' ')[0]), look.milestones.map((m) => m.id));
    const unread = first.filter((w) => description(w).startsWith('reading…'));
    assert.ok(unread.length > 0, 'slices whose plan is not read yet say so');
    for (const w of unread) assert.equal(panel.getTreeItem(w.node).collapsibleState, TreeItemCollapsibleState.Collapsed, `${w.id} can be opened`);
    // Opened meanwhile, such a slice shows one row saying its tasks are being read (not an empty opening).
    const opened = unread[0];
    const placeholder = panel.getChildren(opened.node).map((n) => panel.getTreeItem(n));
    assert.deepEqual(placeholder.map((i) => [String(i.label), i.collapsibleState]), [['Reading its tasks…', TreeItemCollapsibleState.None]]);
    assertNoBatchAnswersAnother(panel);
    // The panel lets the workspace read the rest once its first rows are out.
    assert.equal(ws.readingStarted, 0);
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(ws.readingStarted, 1);
    ws.read(ledgerline);
    await settled(told);
    const after = checkWalk(panel, parents);
    assert.ok(after.some((w) => w.id === pendingId), 'the pending actions group once read');
    assert.deepEqual(after.filter((w) => description(w).startsWith('reading…')).map((w) => w.id), []);
    // The slice opened while read now shows its tasks, as its plan lists them.
    const [milestoneId, sliceId] = opened.id.slice(`gsd:${ledgerline.project.gsdDir}/`.length).split('/');
    const planned = ledgerline.engine.state().milestones.find((m) => m.id === milestoneId)!.slices.find((x) => x.id === sliceId)!.tasks.map((t) => t.id);
    assert.ok(planned.length > 0, `${opened.id} has tasks once read`);
    assert.deepEqual(panel.getChildren(opened.node).map((n) => String(panel.getTreeItem(n).label).split(' ')[0]), planned);
    // ...which VS Code fetches again because it is told to: the whole tree, or that slice.
    assert.ok(told.some((e) => e === undefined || (Array.isArray(e) ? e : [e]).some((n) => n.id === opened.id)), 'no refresh covers the slice opened while read');
    assert.ok(after.length > first.length, 'the tasks of the other slices are there');
    const batches = assertNoBatchAnswersAnother(panel);
    assert.deepEqual(batches.map((b) => b.length), [1, 2, 1]);
    panel.dispose();
  });

  for (const name of ['ledgerline', 'flight-sim'] as const) {
    it(`one project (${name}): the same holds, with its active milestone and slice open`, async () => {
      const { panel } = await setUp([name]);
      const batches = assertNoBatchAnswersAnother(panel);
      // The pending actions group and the active milestone, then the active slice.
      assert.deepEqual(batches.map((b) => b.length), [1, 2, 1]);
    });
  }
  describe('the first rows handed closed, then opened (a view showing the panel)', () => {
    /** The TreeView as the workbench runs reveal: it opens the node's parents, then the node. */
    class View implements PanelView {
      visible = true;
      readonly revealed: Array<{ id: string; options: RevealOptions; opened: string[] }> = [];
      private release: Array<() => void> = [];
      constructor(private readonly panel: ReviewPanelProvider) {}
      reveal(node: PanelNode, options: RevealOptions): Promise<void> {
        const opened: string[] = [];
        for (let n: PanelNode | undefined = node; n; n = this.panel.getParent(n)) opened.unshift(n.id);
        this.revealed.push({ id: node.id, options, opened });
        return new Promise((resolve) => this.release.push(resolve));
      }
      /** The workbench is done drawing the reveals asked so far. */
      drawn(): void {
        for (const r of this.release.splice(0)) r();
      }
    }
    /** The rows a view shows opened when each node opens as its item says (no view to fold with). */
    const openedPlainly = (panel: ReviewPanelProvider) => openingBatches(panel).slice(1).flat().map((n) => n.id);
    /** Ids without the project's folder (each set-up copies the sample anew). */
    const inProject = (ids: Iterable<string>, gsdDir: string) => [...ids].map((id) => id.replace(gsdDir, '<gsd>')).sort();
    const turn = (ms = 0) => new Promise((r) => setTimeout(r, ms));

    for (const reading of [true, false]) {
      it(`${reading ? 'while the project is read' : 'a project read whole'}: the top level comes with no row open, then reveal opens what a plain opening opens, and the read waits for that`, async () => {
        const plain = await setUp(['ledgerline'], reading);
        const expected = inProject(openedPlainly(plain.panel), plain.ledgerline.project.gsdDir);
        plain.panel.dispose();
        // The sample's active milestone and slice; the pending actions group once the project is read.
        assert.deepEqual(expected, [...(reading ? [] : ['gsd:<gsd>#pending']), 'gsd:<gsd>/M002-k7q2xz', 'gsd:<gsd>/M002-k7q2xz/S02']);

        const { ws, panel, ledgerline } = await setUp(['ledgerline'], reading);
        const view = new View(panel);
        panel.showIn(view);
        // The workbench's first fetch: the top level and its items, in one turn.
        const top = panel.getChildren();
        const states = top.map((n) => panel.getTreeItem(n).collapsibleState);
        assert.ok(!states.includes(TreeItemCollapsibleState.Expanded), 'no row of the first top level waits for its children');
        assert.ok(states.includes(TreeItemCollapsibleState.Collapsed), 'the active milestone can be opened');
        assert.equal(view.revealed.length, 0, 'nothing is opened before the first rows are out');
        assert.equal(ws.readingLeftToView, 1, 'the wait after activation no longer starts the read: the panel does');
        await turn(100);
        // One path at a time: the next reveal only once the workbench drew the last.
        for (let i = 0; i < 5 && view.revealed.length < expected.length; i++) {
          assert.equal(ws.readingStarted, 0, 'the read waits while rows are opened');
          view.drawn();
          await turn(20);
        }
        const opened = new Set(view.revealed.flatMap((r) => r.opened));
        assert.deepEqual(inProject(opened, ledgerline.project.gsdDir), expected, 'reveal opens the rows a plain opening opens, and no other');
        for (const r of view.revealed) assert.deepEqual(r.options, { select: false, focus: false, expand: true }, 'nothing selected or focused');
        view.drawn();
        await turn(300);
        assert.equal(ws.readingStarted, 1, 'the read starts once the opened rows are drawn');
        // From here on, items say how they open, as before (a refresh or a new view).
        assert.deepEqual(inProject(openedPlainly(panel), ledgerline.project.gsdDir), expected);
        panel.dispose();
      });
    }

    it('the rows are opened only after the reply with the first top level has left the extension host', async () => {
      const { panel } = await setUp(['ledgerline'], true);
      const view = new View(panel);
      panel.showIn(view);
      // As the extension host answers $getChildren: the provider's nodes and their items; once that
      // promise chain is over, the reply is written on a timer, compressed on zlib's thread pool and
      // sent from its callback (ipc.net.ts: ProtocolWriter, WebSocketNodeSocket's permessage-deflate).
      let revealsBeforeReply = -1;
      await Promise.resolve().then(() => {
        for (const n of panel.getChildren()) panel.getTreeItem(n);
      });
      setTimeout(() => zlib.deflateRaw(Buffer.alloc(16_000, 'x'), () => (revealsBeforeReply = view.revealed.length)));
      await turn(300);
      assert.equal(revealsBeforeReply, 0, 'no opening work runs between the first top level and its reply');
      assert.ok(view.revealed.length > 0, 'the rows are opened right after');
      panel.dispose();
    });

    it('a hidden view, or several projects: the rows are handed open as before, and the read starts after FIRST_LOOK_DRAW_MS', async () => {
      for (const [names, visible] of [[['ledgerline'], false], [['ledgerline', 'flight-sim'], true]] as const) {
        const { ws, panel } = await setUp([...names], true);
        const view = new View(panel);
        view.visible = visible;
        panel.showIn(view);
        const batches = assertNoBatchAnswersAnother(panel);
        assert.ok(batches[0][0].expandedChildren > 0, `${names.join('+')}: rows open at once`);
        await turn(1200);
        assert.equal(view.revealed.length, 0);
        assert.equal(ws.readingStarted, 1);
        assert.equal(ws.readingLeftToView, 0, 'the wait after activation may still start the read');
        panel.dispose();
      }
    });

    it('a reveal the workbench never answers: the read starts anyway, OPENING_CAP_MS after the first top level', async function () {
      this.timeout(10_000);
      const { ws, panel } = await setUp(['ledgerline'], true);
      const view = new View(panel);
      panel.showIn(view);
      panel.getChildren();
      await turn(3000);
      assert.equal(view.revealed.length, 1, 'the first path is being opened');
      assert.equal(ws.readingStarted, 0);
      await turn(1300);
      assert.equal(ws.readingStarted, 1);
      panel.dispose();
    });

    it('the view hidden before the rows are opened: no reveal (it would show the view again), the read starts', async () => {
      const { ws, panel } = await setUp(['ledgerline'], true);
      const view = new View(panel);
      panel.showIn(view);
      panel.getChildren();
      view.visible = false;
      await turn(300);
      assert.equal(view.revealed.length, 0);
      assert.equal(ws.readingStarted, 1);
      panel.dispose();
    });
  });
});
