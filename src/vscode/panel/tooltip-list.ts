// A list in a tooltip, bounded: the first few lines and one saying how many more. With the panel
// shown, a review of 50,000 open issues listed in full in its task's tooltip kept the extension host
// from answering for minutes (VS Code 1.100.3; the workbench logged it silent 20 s at a time, most
// likely converting the 2 MB of markdown, which it reads for links, at every refresh of the panel).
// No vscode import, so unit tests read it directly.

/** The most lines of one list a tooltip shows. */
export const TOOLTIP_LIST_MAX = 20;

/** The lines of `items` (`line` of each) up to TOOLTIP_LIST_MAX, and then `more(n)` for the n left out. */
export function boundedList<T>(items: readonly T[], line: (item: T) => string, more: (left: string) => string): string[] {
  const shown = items.slice(0, TOOLTIP_LIST_MAX).map(line);
  return items.length > TOOLTIP_LIST_MAX ? [...shown, more((items.length - TOOLTIP_LIST_MAX).toLocaleString('en-US'))] : shown;
}
