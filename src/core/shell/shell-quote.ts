// Quoting a value (a path) as one literal word for the shell that will read a command line. One
// module for the installer's hook commands and the terminal dispatch target, each rule from its
// shell's documentation:
// - POSIX sh (Shell Command Language, 2.2.2 Single-Quotes): inside single quotes every character is
//   literal and a single quote cannot occur, so each `'` becomes `'\''` (close, escaped quote, reopen).
// - A Windows command line that cmd.exe or PowerShell may read (a hook host's `windows` command,
//   the terminal on Windows): double quotes keep spaces together in both (cmd.exe's `cmd /?`;
//   PowerShell's about_Quoting_Rules), but inside them cmd expands `%VAR%` and PowerShell expands
//   `$name`, `$(…)` and backtick escapes and also ends a string at a typographic double quote
//   (U+201C–U+201E), and no escape works in both. A value holding one of those, or `"` or a line
//   break, is refused with a clear error, never half-quoted.

export type ShellDialect = 'posix' | 'windows';

export class UnquotableError extends Error {}

export function quotePosix(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

const WINDOWS_UNSAFE = /["%$`\u201C-\u201E\r\n]/;

export function quoteWindows(value: string): string {
  const bad = WINDOWS_UNSAFE.exec(value);
  if (bad) {
    const shown = bad[0] === '\n' ? '\\n' : bad[0] === '\r' ? '\\r' : bad[0];
    throw new UnquotableError(`${value} holds ${shown}, which a Windows command line (cmd.exe or PowerShell) cannot keep literal inside quotes; use a path without it`);
  }
  return `"${value}"`;
}

export function shellQuote(value: string, dialect: ShellDialect): string {
  return dialect === 'windows' ? quoteWindows(value) : quotePosix(value);
}

/** The dialect of a command line the platform's default shell reads (cmd.exe or PowerShell on Windows). */
export function platformDialect(platform: NodeJS.Platform = process.platform): ShellDialect {
  return platform === 'win32' ? 'windows' : 'posix';
}
