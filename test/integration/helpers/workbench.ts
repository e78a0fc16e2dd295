// Asks the runner that drives the browser (code-server host only) to screenshot the real workbench
// and to say which texts it can see in the page. Requests and answers are JSON files in
// GSD_WORKBENCH_BRIDGE; under @vscode/test-electron there is no browser and this returns null.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { markUnproven } from '../../shared/current-test';

export interface WorkbenchView {
  screenshot: string;
  seen: Record<string, boolean>;
  /** The side bar tree's rows, when the request named the rows it expects. */
  rows?: TreeRow[];
  /** The texts of the status bar's GSD items as the page draws them, when asked for. */
  statusBar?: string[];
  /** Their aria-labels: what a screen reader is given. */
  statusBarAria?: string[];
  /** The side bar view's title actions and the activity bar's items, by aria-label (viewActions asked for). */
  viewActions?: string[];
  activityBar?: string[];
}

/** One row a tree view draws: its depth (1 = top level) and its label. */
export interface TreeRow {
  level: number;
  label: string;
}


export function workbenchBridgeAvailable(): boolean {
  return Boolean(process.env.GSD_WORKBENCH_BRIDGE);
}

/** `expectRows`: the side bar tree's rows the shot waits for (up to 10 s); the answer then has the rows drawn. */
/** `pressAfter`: a key the runner presses in the page after the shot (e.g. Escape to close a dialog). */
/** `hoverRow`: the label of a side bar row the runner points at before the shot, so its tooltip shows. */
export async function captureWorkbench(name: string, expectTexts: string[] = [], timeoutMs = 20_000, expectRows?: TreeRow[], pressAfter?: string, hoverRow?: string): Promise<WorkbenchView | null> {
  return askRunner({ name, expectTexts, expectRows, pressAfter, hoverRow }, timeoutMs);
}

/** A screenshot once `expectTexts` show, with the side bar view's title actions and the activity bar's items by name. */
export async function readViewActions(name: string, expectTexts: string[], timeoutMs = 20_000): Promise<WorkbenchView | null> {
  return askRunner({ name, expectTexts, viewActions: true }, timeoutMs);
}

/**
 * A screenshot, and the texts of the status bar's GSD items as the page draws them, once `expect`
 * shows in the page (up to 10 s; the answer says what it shows either way).
 */
export async function readStatusBar(name: string, expect: string, timeoutMs = 20_000): Promise<WorkbenchView | null> {
  return askRunner({ name, expectTexts: [expect], statusBar: true }, timeoutMs);
}

/** Clicks the status bar's GSD item in the page, as a person would (null without the runner's browser). */
export async function clickStatusBar(name: string, timeoutMs = 20_000): Promise<WorkbenchView | null> {
  return askRunner({ name, expectTexts: [], clickStatusBar: true }, timeoutMs);
}

/** Clicks a notification's button (by its label) in the page, once `expect` shows (null without the runner's browser). */
export async function clickNotificationButton(name: string, expect: string, label: string, timeoutMs = 20_000): Promise<WorkbenchView | null> {
  return askRunner({ name, expectTexts: [expect], clickNotificationButton: label }, timeoutMs);
}

async function askRunner(request: { name: string; expectTexts: string[]; expectRows?: TreeRow[]; pressAfter?: string; hoverRow?: string; statusBar?: boolean; clickStatusBar?: boolean; clickNotificationButton?: string; viewActions?: boolean }, timeoutMs: number): Promise<WorkbenchView | null> {
  const { name } = request;
  const dir = process.env.GSD_WORKBENCH_BRIDGE;
  if (!dir) return null;
  // Unique per request: every test file is its own bundle, so a module-level counter would repeat.
  const n = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const response = path.join(dir, `res-${n}.json`);
  fs.writeFileSync(path.join(dir, `req-${n}.json.tmp`), JSON.stringify({ ...request, response }));
  fs.renameSync(path.join(dir, `req-${n}.json.tmp`), path.join(dir, `req-${n}.json`));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(response)) {
      const view = JSON.parse(fs.readFileSync(response, 'utf8')) as WorkbenchView;
      fs.rmSync(response, { force: true });
      return view;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the test runner did not answer the screenshot request "${name}" within ${timeoutMs / 1000} s`);
}


/**
 * The checks of what the page shows, or, where no test runner drives this workbench (the desktop
 * host: captureWorkbench gives null), a note on the test that they were not made: `npm test` then
 * lists it as passed without part of its checks, instead of a silent pass.
 */
export function checkSeen(view: WorkbenchView | null, check: (view: WorkbenchView) => void): void {
  if (view) check(view);
  else markUnproven('its checks of the page: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
}
