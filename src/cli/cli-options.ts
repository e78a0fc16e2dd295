// `gsd-review`'s options, as node:util's parseArgs takes them (and plain-args.ts, which must agree).

export const OPTIONS = {
  root: { type: 'string' },
  json: { type: 'boolean', default: false },
  full: { type: 'boolean', default: false },
  apply: { type: 'boolean', default: false },
  untrusted: { type: 'boolean', default: false },
  event: { type: 'string' },
  host: { type: 'string' },
  user: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  done: { type: 'boolean', default: false },
  guard: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;
