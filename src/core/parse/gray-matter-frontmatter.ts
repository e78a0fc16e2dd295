// gray-matter for the frontmatter of files read once in a while, outside the hot derive path
// (reviews when the loop processes them, PREFERENCES.md, continue files), and for writing new
// files with frontmatter (continue files). Its default YAML engine (js-yaml 3, YAML 1.1) turns
// `completed_at: 2026-05-10T14:02:11Z` into a Date and `duration: 1:10` into 70; ours is the `yaml`
// package's YAML 1.2 core schema, which keeps GSD's values as written, with aliases bounded. The
// hot path (every file of a full derive) keeps its hand scanner (frontmatter.ts), checked against
// this module by a property test.
import type GrayMatter from 'gray-matter';
import type * as YamlModule from 'yaml';
import { countLines, findFrontmatterBlock, type Frontmatter } from './frontmatter';

// Both loaded on first use: the CLI's `next` and `hook`, run on every agent event, never need them
// (the `yaml` package is a bundle of its own, esbuild.mjs).
let yamlModule: typeof YamlModule | undefined;
function yaml(): typeof YamlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
  return (yamlModule ??= require('yaml') as typeof YamlModule);
}
let grayMatter: typeof GrayMatter | undefined;
function matter(): typeof GrayMatter {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
  return (grayMatter ??= require('gray-matter') as typeof GrayMatter);
}

/** An alias expanding into more nodes than this is refused (a "billion laughs" file). */
const MAX_ALIAS_COUNT = 50;

const yamlEngine = {
  parse(text: string): object {
    const value = yaml().parse(text, { schema: 'core', maxAliasCount: MAX_ALIAS_COUNT, merge: false, uniqueKeys: true, prettyErrors: false });
    return value ?? {};
  },
  stringify(data: object): string {
    return yaml().stringify(data, { schema: 'core', lineWidth: 0 });
  },
};

const refuse = {
  parse(): object {
    throw new Error('frontmatter in a language other than YAML is not read');
  },
};

/** Only YAML: gray-matter would otherwise evaluate `---js` frontmatter as code. */
const OPTIONS = { language: 'yaml', engines: { yaml: yamlEngine, js: refuse, javascript: refuse, coffee: refuse, coffeescript: refuse, cson: refuse, json: refuse, toml: refuse } };

/** The frontmatter of a GSD markdown file, as `parseFrontmatter` gives it, read by gray-matter. */
export function readFrontmatter(text: string, file: string): Frontmatter {
  // The fences are GSD's (`---` alone on the first line): `---js` or an unclosed block is no
  // frontmatter to hand to gray-matter, exactly as for the hand scanner.
  const block = findFrontmatterBlock(text);
  if (!block.present) return { data: {}, body: text, bodyStartLine: 1, present: false, diagnostics: [] };
  const body = text.slice(block.bodyStart);
  const bodyStartLine = countLines(text, block.bodyStart) + 1;
  if (!block.closed) {
    return { data: {}, body, bodyStartLine, present: true, diagnostics: [{ file, line: 1, severity: 'error', message: 'frontmatter starts with --- but is never closed; its keys were not read' }] };
  }
  try {
    // gray-matter cuts the block at `\n---`, leaving a CRLF file's last `\r` in the last value;
    // YAML reads a line break as `\n` anyway, so the block is handed over with `\n` breaks.
    const yamlOnly = `---\n${block.yaml!.replace(/\r\n/g, '\n')}---\n`;
    const parsed = matter()(yamlOnly, OPTIONS);
    const data = parsed.data as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      return { data: {}, body, bodyStartLine, present: true, diagnostics: [{ file, line: 2, severity: 'error', message: 'frontmatter is not a YAML mapping (key: value lines); its keys were not read' }] };
    }
    return { data: data as Record<string, unknown>, body, bodyStartLine, present: true, diagnostics: [] };
  } catch (error) {
    const pos = (error as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
    const message = ((error as Error).message || String(error)).split('\n')[0];
    return { data: {}, body, bodyStartLine, present: true, diagnostics: [{ file, line: 1 + (pos ?? 1), severity: 'error', message: `frontmatter is not valid YAML: ${message}` }] };
  }
}

/** A new markdown file: `data` as YAML frontmatter (GSD's values as strings stay strings), then `body`. */
export function writeWithFrontmatter(body: string, data: Record<string, unknown>): string {
  return matter().stringify(body, data, OPTIONS);
}
