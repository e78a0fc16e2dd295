// Text from the project's files (a task title, a finding, a pending action) written in markdown as
// people write it: "Refuse `rule add` when …". Where the surface renders markdown (a tooltip, a
// comment), its code spans stay code and everything else is escaped; where it shows plain text (a
// tree row's label, a CodeLens tooltip), code spans read as quotes. No raw backticks either way.
// No vscode import, so unit tests read it directly.

export interface TextPart {
  text: string;
  code: boolean;
}

/** The text in runs of prose and code spans, as CommonMark has them: a run of N backticks closed by the next run of exactly N. */
export function codeSpans(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let prose = '';
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
      prose += text.slice(i, n);
      i = n;
      continue;
    }
    prose += text.slice(i, open);
    if (prose) parts.push({ text: prose, code: false });
    prose = '';
    parts.push({ text: text.slice(n, close).trim(), code: true });
    i = close + ticks;
  }
  prose += text.slice(i);
  if (prose) parts.push({ text: prose, code: false });
  return parts;
}

/** Markdown special characters escaped, so the text shows as written. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#|]/g, (c) => `\\${c}`);
}

/** For a surface that renders markdown: code spans as code, the rest escaped. */
export function markdownText(text: string): string {
  return codeSpans(text)
    .map((p) => {
      if (!p.code) return escapeMarkdown(p.text);
      // A fence longer than any backtick run inside, padded when the code starts or ends with one.
      const longest = Math.max(0, ...(p.text.match(/`+/g) ?? []).map((r) => r.length));
      const fence = '`'.repeat(longest + 1);
      const pad = p.text.startsWith('`') || p.text.endsWith('`') ? ' ' : '';
      return `${fence}${pad}${p.text}${pad}${fence}`;
    })
    .join('');
}

/** For a surface that shows plain text: code spans in quotes, bold marks dropped. */
export function plainText(text: string): string {
  return codeSpans(text)
    .map((p) => (p.code ? `"${p.text}"` : p.text))
    .join('')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2');
}
