// rules.yaml: the user's categorisation rules, read on every import and rewritten by `rule add`
// and `rule remove`. Comments in the file are kept when a rule is added or removed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Rule } from './rules';

export interface RuleLine {
  /** The rule, or null for a comment or blank line kept as it was. */
  rule: Rule | null;
  text: string;
}

const RULE = /^\s*-\s*pattern:\s*(\S.*?)\s+category:\s*(\S.*?)\s*$/;

export function parseRulesFile(text: string): RuleLine[] {
  return text.split('\n').map((line) => {
    const m = RULE.exec(line);
    if (!m) return { rule: null, text: line };
    return { rule: { pattern: new RegExp(m[1], 'i'), category: m[2] }, text: line };
  });
}

export function readRules(file: string): RuleLine[] {
  if (!fs.existsSync(file)) return [];
  return parseRulesFile(fs.readFileSync(file, 'utf8'));
}

export function rulesOf(lines: RuleLine[]): Rule[] {
  return lines.flatMap((l) => (l.rule ? [l.rule] : []));
}

function ruleText(pattern: string, category: string): string {
  return `- pattern: ${pattern} category: ${category}`;
}

export function addRule(lines: RuleLine[], pattern: string, category: string): RuleLine[] {
  return [...lines, { rule: { pattern: new RegExp(pattern, 'i'), category }, text: ruleText(pattern, category) }];
}

export function removeRule(lines: RuleLine[], pattern: string): { lines: RuleLine[]; removed: number } {
  const kept = lines.filter((l) => !l.rule || l.rule.pattern.source !== pattern);
  return { lines: kept, removed: lines.length - kept.length };
}

function serialise(lines: RuleLine[]): string {
  return lines.map((l) => l.text).join('\n');
}

/**
 * Replaces rules.yaml with the new rules: written to a temporary file beside it, then renamed over
 * it, so a crash never leaves half a file.
 */
export function writeRules(file: string, lines: RuleLine[]): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, serialise(lines));
  fs.renameSync(tmp, file);
}

export function ruleCount(file: string): number {
  return rulesOf(readRules(file)).length;
}
