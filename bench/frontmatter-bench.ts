// Frontmatter parsing cost: the hot path's hand scanner (what the full derive runs on every file)
// against gray-matter, with our YAML 1.2 engine (what reviews and continue files use outside the
// derive) and with its own default (js-yaml 3). All files are read into memory first, so only
// parsing is timed; ratios are against the hand scanner, in the same run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import matter from 'gray-matter';
import { parseFrontmatter } from '../src/core/parse/frontmatter';
import { readFrontmatter } from '../src/core/parse/gray-matter-frontmatter';
import { fmt, medianMsInterleaved, ratio } from './measure';

const SUMMARY_KEYS = ['id', 'parent', 'milestone', 'duration', 'verification_result', 'completed_at', 'blocker_discovered'];

export function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) markdownFiles(p, out);
    else if (e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

export function frontmatterBench(gsdDir: string, deriveMs: number): void {
  const texts = markdownFiles(gsdDir).map((f) => fs.readFileSync(f, 'utf8'));
  const withFrontmatter = texts.filter((t) => t.startsWith('---')).length;
  const [hand, handAll, grayOurs, grayDefault] = medianMsInterleaved(7, [
    () => texts.forEach((t) => parseFrontmatter(t, 'f', { onlyKeys: SUMMARY_KEYS })),
    () => texts.forEach((t) => parseFrontmatter(t, 'f')),
    () => texts.forEach((t) => readFrontmatter(t, 'f')),
    // gray-matter caches by content when called without options; `{}` measures the parse.
    () => texts.forEach((t) => matter(t, {})),
  ]);
  console.log(`\n## Frontmatter of every markdown file (${texts.length.toLocaleString('en')} files, ${withFrontmatter.toLocaleString('en')} with frontmatter; parsing only)`);
  console.log(`hand scanner, wanted keys (derive)  ${fmt(hand)} ms`);
  console.log(`hand scanner, every key             ${fmt(handAll)} ms   ${ratio(handAll, hand)}`);
  console.log(`gray-matter + yaml 1.2 core engine  ${fmt(grayOurs)} ms   ${ratio(grayOurs, hand)} the hand scanner; ${ratio(grayOurs, deriveMs)} a cold full derive`);
  console.log(`gray-matter default (js-yaml 3)     ${fmt(grayDefault)} ms   ${ratio(grayDefault, hand)} the hand scanner (turns times into Dates)`);
}
