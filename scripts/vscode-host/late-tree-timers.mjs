// A page script for the integration runner: the timing of a busy renderer, made the same every run,
// for VS Code's custom tree views.
//
// The workbench's TreeView data source (src/vs/workbench/browser/parts/views/treeView.ts,
// TreeDataSource.getChildren, 1.100 to 1.139 at least) batches the getChildren calls of one turn:
// each call adds its element to the open batch and sets a zero-delay timer; the first timer to fire
// takes the batch and asks the extension host for all of it, the later ones await that request and
// pick their answer by their index in the batch. When the answer comes back before a later timer of
// the same batch has fired (a renderer busy with layout, or descheduled on a loaded machine), the
// tree already asks for the children of the expanded nodes just received; that opens a new batch,
// and the late timer takes the new batch and answers its element with the new batch's entry at its
// own index: rows of one node drawn under another (microsoft/vscode pull request 243911 describes
// the same race; it is not merged).
//
// This script lets the first timer of each batch fire at once and holds the batch's later timers, and
// any such timer set meanwhile, for `lateMs`, then lets them fire in their order: the extension
// host's answer always arrives first. A batch of one is never held, so a tree that never fetches two
// nodes' children in one turn loses no time. Only the data source's timers are touched (found by the
// text of their callback, the same in every version).
export function lateTreeTimers(lateMs) {
  const realSetTimeout = globalThis.setTimeout.bind(globalThis);
  const held = [];
  let pump = null;
  const isTreeBatchTimer = (handler, timeout) => typeof handler === 'function' && !timeout && String(handler).includes('Bad progress location');
  const fireFirst = () => {
    pump = null;
    const first = held.shift();
    if (held.length) pump = realSetTimeout(fireRest, lateMs);
    first();
  };
  const fireRest = () => {
    pump = null;
    for (const fn of held.splice(0)) realSetTimeout(fn, 0);
  };
  globalThis.setTimeout = function (handler, timeout, ...args) {
    if (!isTreeBatchTimer(handler, timeout)) return realSetTimeout(handler, timeout, ...args);
    held.push(() => handler(...args));
    if (!pump) pump = realSetTimeout(fireFirst, 0);
    // The data source never clears these timers; a number keeps the contract of setTimeout.
    return 0;
  };
}
