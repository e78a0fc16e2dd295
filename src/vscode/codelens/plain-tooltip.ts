// A CodeLens tooltip is plain text (VS Code takes no markdown there): a project's line written in
// markdown ("Refuse `rule add` when …") reads with quotes instead of raw backticks and asterisks.
// No vscode import, so unit tests read it directly.

/** Code spans as CommonMark has them: a run of N backticks closed by the next run of exactly N. */
function quoteCodeSpans(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('`', i);
    if (open < 0) break;
    let n = open;
    while (text[n] === '`') n++;
    const ticks = n - open;
    // The closing run: exactly as long, not part of a longer run.
    let close = text.indexOf('`', n);
    while (close >= 0) {
      let end = close;
      while (text[end] === '`') end++;
      if (end - close === ticks) break;
      close = text.indexOf('`', end);
    }
    if (close < 0) {
      out += text.slice(i, n);
      i = n;
      continue;
    }
    out += `${text.slice(i, open)}"${text.slice(n, close).trim()}"`;
    i = close + ticks;
  }
  return out + text.slice(i);
}

export function plainTooltipLine(markdown: string): string {
  return quoteCodeSpans(markdown).replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2');
}
