// Ticking or unticking one issue of a review file: only that line's checkbox changes, and only when
// the line is still the issue that was shown (the file may have changed since it was read).
import type { ReviewIssue } from '../model/types';

// One blank after the box, the rest (further blanks included) in the text: `\s+` before `.*` could
// backtrack quadratically on a line that does not end the way `$` wants.
const CHECKBOX = /^(\s*[-*+]\s+\[)([ xX])(\]\s)(.*)$/;

export class IssueMovedError extends Error {}

/**
 * The review's text with the issue on 1-based `line` checked (or unchecked). Throws IssueMovedError
 * when that line is no checkbox item or no longer says what `issue` said.
 */
export function withIssueChecked(text: string, issue: Pick<ReviewIssue, 'line' | 'text'>, checked: boolean): string {
  // Split keeping each line's own ending, so a CRLF file stays CRLF and nothing else moves.
  const lines = text.split(/(?<=\n)/);
  const index = issue.line - 1;
  const raw = lines[index];
  if (raw === undefined) throw new IssueMovedError(`the review has no line ${issue.line} any more`);
  const ending = /\r?\n$/.exec(raw)?.[0] ?? '';
  const body = raw.slice(0, raw.length - ending.length);
  const m = CHECKBOX.exec(body);
  if (!m || !m[4].includes(issue.text.slice(0, 60))) throw new IssueMovedError(`line ${issue.line} of the review is not that issue any more; it was edited since it was read`);
  const mark = checked ? 'x' : ' ';
  if ((m[2] !== ' ') === checked) return text;
  lines[index] = `${m[1]}${mark}${m[3]}${m[4]}${ending}`;
  return lines.join('');
}
