// The name of a prompt file the terminal target writes and then names on the terminal's command
// line. Unit ids and types come from the project (a GSD-2 or successor `gsd.db` holds any text), and
// no quoting keeps every character literal in every shell a user may run there (sh, PowerShell,
// cmd.exe, fish), so the name keeps only letters, digits, `.`, `_` and `-`: whatever the id, the
// shell reads the name as the plain word it is.
const UNSAFE = /[^A-Za-z0-9._-]/g;

/** `<stamp>-<unit type>-<unit id>`, each part reduced to the characters above; no extension. */
export function promptFileBase(unitType: string, unitId: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  // A leading `-` could read as an option; the stamp always starts the name with a digit.
  return `${stamp}-${unitType.replace(UNSAFE, '-')}-${unitId.replace(UNSAFE, '-')}`.slice(0, 160);
}
