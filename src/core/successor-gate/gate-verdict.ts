// The verdict GSD reads from the gate's artifact, and our edit of it. GSD (gsd-pi 1.16.1
// verdict-parser.ts extractFrontmatterVerdict, shared/frontmatter.ts splitFrontmatter) takes the
// text from the first `---` (leading blanks skipped) to the first `\n---`, parses it with the `yaml`
// package, and reads the top-level key `verdict` in any letter case (else `outcome.verdict`),
// trimmed, lower-cased, `passed` read as `pass`. pass and advisory go on; needs-rework re-runs the
// task; anything else, or none, re-runs the hook. Our edit changes that one line and nothing else.
import type * as YamlModule from 'yaml';
import { findFrontmatterBlock } from '../parse/frontmatter';

let yamlModule: typeof YamlModule | undefined;
function yamlLib(): typeof YamlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (yamlModule ??= require('yaml') as typeof YamlModule);
}

/** What `--done` sets: the review passed, asks for rework, or is left with issues at the cap. */
export type GateVerdict = 'pass' | 'needs-rework' | 'advisory';

export class ReviewFormatError extends Error {
  override name = 'ReviewFormatError';
}

function caseInsensitive(obj: Record<string, unknown>, key: string): unknown {
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === key) return v;
  return undefined;
}

function normalized(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  return s ? (s === 'passed' ? 'pass' : s) : undefined;
}

/** The verdict as GSD reads it from an artifact's text, or undefined (none, or frontmatter it cannot parse as YAML). */
export function gsdReadsVerdict(content: string): string | undefined {
  const trimmed = content.trimStart();
  if (!trimmed.startsWith('---')) return undefined;
  const afterFirst = trimmed.indexOf('\n');
  if (afterFirst === -1) return undefined;
  const rest = trimmed.slice(afterFirst + 1);
  const end = rest.indexOf('\n---');
  if (end === -1) return undefined;
  let parsed: unknown;
  try {
    parsed = yamlLib().parse(rest.slice(0, end));
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const root = parsed as Record<string, unknown>;
  const top = normalized(caseInsensitive(root, 'verdict'));
  if (top) return top;
  const outcome = caseInsensitive(root, 'outcome');
  return outcome && typeof outcome === 'object' ? normalized(caseInsensitive(outcome as Record<string, unknown>, 'verdict')) : undefined;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

/**
 * The review with its frontmatter's `verdict` line set to `verdict` (added as the first key when
 * there is none); every other byte kept. Throws ReviewFormatError, in words the reviewer can act
 * on, when the frontmatter cannot be edited so that GSD reads that verdict.
 */
export function withGateVerdict(text: string, verdict: GateVerdict): string {
  const block = findFrontmatterBlock(text);
  if (!block.present || !block.closed || block.yaml === null) throw new ReviewFormatError('the review has no frontmatter: it must start with a line ---, then task:, cycle:, verdict: lines, then a line ---');
  const doc = yamlLib().parseDocument(block.yaml, { prettyErrors: false });
  if (doc.errors.length > 0) throw new ReviewFormatError(`the review's frontmatter is not valid YAML: ${doc.errors[0].message.split('\n')[0]}`);
  if (!yamlLib().isMap(doc.contents)) throw new ReviewFormatError('the review\'s frontmatter must be key: value lines (task, cycle, verdict)');
  const pairs = doc.contents.items.filter((p) => yamlLib().isScalar(p.key) && String((p.key as YamlModule.Scalar).value).toLowerCase() === 'verdict');
  if (pairs.length > 1) throw new ReviewFormatError('the review\'s frontmatter has more than one verdict line; keep one');
  const eol = block.eol;
  let out: string;
  if (pairs.length === 0) {
    out = text.slice(0, block.yamlStart) + `verdict: ${verdict}${eol}` + text.slice(block.yamlStart);
  } else {
    const pair = pairs[0];
    const key = pair.key as YamlModule.Scalar;
    const value = pair.value as YamlModule.Node | null;
    const from = lineStart(text, block.yamlStart + key.range![0]);
    const to = lineEnd(text, block.yamlStart + (value?.range ? Math.max(value.range[1] - 1, key.range![1]) : key.range![1]));
    out = text.slice(0, from) + `verdict: ${verdict}${eol}` + text.slice(to);
  }
  if (gsdReadsVerdict(out) !== verdict) throw new ReviewFormatError('GSD would not read the verdict from this review\'s frontmatter; start the file with --- and keep its frontmatter to key: value lines');
  return out;
}
