// Keeping a finding on its line while the file is edited in the editor: each edit replaces a range
// of old lines with some new ones, and a line below it moves by the difference (as the GitHub Pull
// Requests extension keeps review threads in place). Lines are 0-based here, as the editor counts.

/**
 * One edit of a document: old lines `startLine`..`endLine` (inclusive; `endLine` = `startLine` - 1
 * for a pure insertion) became `newLineCount` lines (0 for a pure deletion).
 */
export interface LineEdit {
  startLine: number;
  endLine: number;
  newLineCount: number;
}

/** Where `line` is after one edit. A line inside the replaced range stays in what replaced it. */
export function lineAfterEdit(line: number, edit: LineEdit): number {
  if (line < edit.startLine) return line;
  const oldCount = edit.endLine - edit.startLine + 1;
  if (line > edit.endLine) return line + edit.newLineCount - oldCount;
  return edit.newLineCount > 0 ? Math.min(line, edit.startLine + edit.newLineCount - 1) : edit.startLine;
}

/** Where `line` is after the edits from index `from` on, applied in the order they were made. */
export function lineAfterEdits(line: number, edits: readonly LineEdit[], from = 0): number {
  let at = line;
  for (let i = from; i < edits.length; i++) at = lineAfterEdit(at, edits[i]);
  return at;
}

/**
 * The one edit that turns `before` into `after`: the lines they share at the start and at the end
 * stay, what is between was replaced. Null when nothing changed. Any change an editor reports (a
 * keystroke, a paste, a format, a revert that replaces the whole text) comes down to this.
 */
export function lineEditBetween(before: readonly string[], after: readonly string[]): LineEdit | null {
  const max = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  if (prefix === before.length && prefix === after.length) return null;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return { startLine: prefix, endLine: before.length - suffix - 1, newLineCount: after.length - prefix - suffix };
}
