// Keeping a finding on its line while the file is edited in the editor: each edit replaces a range
// of old lines with some new ones, and a line below it moves by the difference (as the GitHub Pull
// Requests extension keeps review threads in place). Lines are 0-based here, as the editor counts.

/** One edit of a document: old lines `startLine`..`endLine` (inclusive) became `newLineCount` lines. */
export interface LineEdit {
  startLine: number;
  endLine: number;
  /** Lines the replacement spans: 1 + the newlines in the inserted text. */
  newLineCount: number;
}

/** Where `line` is after one edit. A line inside the replaced range stays in what replaced it. */
export function lineAfterEdit(line: number, edit: LineEdit): number {
  if (line < edit.startLine) return line;
  const oldCount = edit.endLine - edit.startLine + 1;
  if (line > edit.endLine) return line + edit.newLineCount - oldCount;
  return Math.min(line, edit.startLine + edit.newLineCount - 1);
}

/** Where `line` is after the edits, applied in the order they were made. */
export function lineAfterEdits(line: number, edits: readonly LineEdit[], from = 0): number {
  let at = line;
  for (let i = from; i < edits.length; i++) at = lineAfterEdit(at, edits[i]);
  return at;
}
