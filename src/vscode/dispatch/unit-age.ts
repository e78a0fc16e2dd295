// How long ago a unit was dispatched, and a date, as people read them ("3 minutes ago",
// "25 Nov 2026, 14:05") in the editor's language: never a raw ISO timestamp. No `vscode` import:
// the adapter passes `vscode.env.language`.

const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 365],
];

/** "3 minutes ago"; "just now"-like wording for under a minute ("now" in English with numeric auto). */
export function timeAgo(iso: string, now: number, locale: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  let value = Math.max(0, Math.round((now - at) / 1000));
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (value < 60) return format.format(0, 'second');
  for (const [unit, size] of STEPS) {
    if (value < size) return format.format(-value, unit);
    value = Math.floor(value / size);
  }
  return format.format(-value, 'year');
}

/** A date and time in the reader's locale; the text itself when it is no date. */
export function humanDate(iso: string, locale: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(iso.trim());
  return new Intl.DateTimeFormat(locale, dateOnly ? { dateStyle: 'medium', timeZone: 'UTC' } : { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}
