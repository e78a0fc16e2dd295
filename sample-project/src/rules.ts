export interface Rule {
  pattern: RegExp;
  category: string;
}

export function categorise(description: string, rules: Rule[]): string {
  for (const rule of rules) if (rule.pattern.test(description)) return rule.category;
  return 'uncategorised';
}
