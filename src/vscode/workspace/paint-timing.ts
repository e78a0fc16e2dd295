// Timestamps for `npm run bench:paint` (bench/panel-paint.mjs), written only when the environment
// variable GSD_PANEL_PAINT_LOG names a file: when activation started, when the panel first gave
// VS Code its top-level nodes, and when the projects' files were all read. The bench adds when the workbench showed them (in the page).
import * as fs from 'node:fs';

const PAINT_LOG = process.env.GSD_PANEL_PAINT_LOG;
let childrenLogged = false;

function record(event: string): void {
  if (!PAINT_LOG) return;
  try {
    fs.appendFileSync(PAINT_LOG, `${JSON.stringify({ event, at: Date.now(), pid: process.pid })}\n`);
  } catch {
    // A benchmark aid: never in the way of the extension.
  }
}

/** Whether this run measures paint times (then the panel is shown at once, as a restored window would). */
export const measuringPaint = PAINT_LOG !== undefined;

export function markActivationStart(): void {
  record('activate');
}

/** activate() returned (the tree view registered, the projects' first look taken). */
export function markActivationEnd(): void {
  record('activated');
}

/** The first time the panel hands VS Code a non-empty top level. */
export function markFirstChildren(count: number): void {
  if (childrenLogged || count === 0) return;
  childrenLogged = true;
  record('first-children');
}

/** Every project's files are read (the panel shows the full state from here on). */
export function markProjectsRead(): void {
  record('read');
}
