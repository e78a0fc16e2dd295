// How long ago a unit was dispatched, and a date, as people read them ("3 minutes ago",
// "25 Nov 2026, 14:05") in the editor's language: never a raw ISO timestamp. No `vscode` import:
// the adapter passes `vscode.env.language`.

// Formatters are kept per locale: making one costs about 0.15 ms (the first far more, ICU's data),
// and a slice's task rows format a date each time they are drawn. The locales are the editor's few.
const formats = new Map<string, Intl.RelativeTimeFormat | Intl.DateTimeFormat>();

function kept<T extends Intl.RelativeTimeFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let format = formats.get(key) as T | undefined;
  if (!format) formats.set(key, (format = make()));
  return format;
}

const relativeFormat = (locale: string) => kept(`r:${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
const dateFormat = (locale: string, dateOnly: boolean) =>
  kept(`${dateOnly ? 'd' : 't'}:${locale}`, () => new Intl.DateTimeFormat(locale, dateOnly ? { dateStyle: 'medium', timeZone: 'UTC' } : { dateStyle: 'medium', timeStyle: 'short' }));

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
  const format = relativeFormat(locale);
  if (value < 60) return format.format(0, 'second');
  for (const [unit, size] of STEPS) {
    if (value < size) return format.format(-value, unit);
    value = Math.floor(value / size);
  }
  return format.format(-value, 'year');
}

/**
 * How long until timeAgo's text for `iso` changes: it counts whole seconds rounded (so a unit
 * turns at 0.5 s before each whole one), says "now" under a minute, then whole minutes, hours and
 * days. A shown age is said again at that moment, not on a clock of its own (which said "now" at 87 s).
 */
export function msUntilAgeChanges(iso: string, now: number): number {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return Infinity;
  const elapsed = Math.max(0, now - at);
  const step = elapsed < 3_600_000 - 500 ? 60_000 : elapsed < 86_400_000 - 500 ? 3_600_000 : 86_400_000;
  return (Math.floor((elapsed + 500) / step) + 1) * step - 500 - elapsed;
}

/** A date and time in the reader's locale; the text itself when it is no date. */
export function humanDate(iso: string, locale: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(iso.trim());
  return dateFormat(locale, dateOnly).format(at);
}
