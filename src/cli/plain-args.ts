// The arguments of an ordinary `gsd-review` call read without node:util's parseArgs, whose first call
// loads its parser (about 0.4 ms of every process, a hook's included). Only the plain shapes are taken:
// `--flag`, `--option value` with a value not starting with `-`, and positionals. Anything else (`=`,
// `--`, short options, unknown options, a missing value) returns null and goes to parseArgs, which
// also words every error. A property test holds this to parseArgs' own answers.

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly default?: string | boolean;
  readonly short?: string;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** What parseArgs({ args, options, allowPositionals: true }) would return, or null when unsure. */
export function plainArgs(args: readonly string[], options: Readonly<Record<string, OptionSpec>>): ParsedArgs | null {
  // parseArgs' own shape: no prototype, so `values.constructor` and the like are not options.
  const values: ParsedArgs['values'] = Object.create(null) as ParsedArgs['values'];
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.charCodeAt(0) !== 45) {
      positionals.push(arg);
      continue;
    }
    if (arg.length < 3 || arg.charCodeAt(1) !== 45 || arg.includes('=')) return null;
    const name = arg.slice(2);
    const spec = Object.hasOwn(options, name) ? options[name] : undefined;
    if (!spec) return null;
    if (spec.type === 'boolean') {
      values[name] = true;
      continue;
    }
    const value = args[i + 1];
    if (value === undefined || value.charCodeAt(0) === 45) return null;
    values[name] = value;
    i++;
  }
  for (const name of Object.keys(options)) {
    const fallback = options[name].default;
    if (fallback !== undefined && values[name] === undefined) values[name] = fallback;
  }
  return { values, positionals };
}
