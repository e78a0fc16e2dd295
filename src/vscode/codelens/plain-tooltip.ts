// A CodeLens tooltip is plain text (VS Code takes no markdown there): a project's line written in
// markdown ("Refuse `rule add` when …") reads with quotes instead of raw backticks and asterisks.
// No vscode import, so unit tests read it directly.

export function plainTooltipLine(markdown: string): string {
  return markdown
    .replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, code: string) => `"${code.trim()}"`)
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2');
}
