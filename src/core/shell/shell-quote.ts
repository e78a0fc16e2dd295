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
// - PowerShell (pwsh on any OS, Windows PowerShell), when the terminal's shell is known to be it
//   (about_Quoting_Rules): inside single quotes nothing expands, and a quote is written by doubling
//   it. PowerShell also takes the typographic single quotes (U+2018–U+201B) for quotes, so POSIX
//   quoting would let a `’` in the value end the string there and run the rest; each is doubled too.

export type ShellDialect = 'posix' | 'windows' | 'powershell';

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

export function quotePowerShell(value: string): string {
  return `'${value.replace(/['\u2018-\u201B]/g, (q) => q + q)}'`;
}

export function shellQuote(value: string, dialect: ShellDialect): string {
  return dialect === 'windows' ? quoteWindows(value) : dialect === 'powershell' ? quotePowerShell(value) : quotePosix(value);
}

/**
 * The dialect of the shell a terminal runs: PowerShell by its executable's name (`pwsh`,
 * `powershell`, on any OS), else the platform's (`shell` is VS Code's `env.shell`, '' when unknown).
 */
export function terminalDialect(shell: string | undefined, platform: NodeJS.Platform = process.platform): ShellDialect {
  const name = (shell ?? '').split(/[\\/]/).pop()?.toLowerCase() ?? '';
  if (/^(pwsh|powershell)(-preview)?(\.exe)?$/.test(name)) return 'powershell';
  return platformDialect(platform);
}

/** The dialect of a command line the platform's default shell reads (cmd.exe or PowerShell on Windows). */
export function platformDialect(platform: NodeJS.Platform = process.platform): ShellDialect {
  return platform === 'win32' ? 'windows' : 'posix';
}
