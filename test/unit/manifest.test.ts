// package.json against the code: what the manifest contributes is what the extension registers,
// and every setting's default is the fallback the code uses when the setting is unset. The code side
// is read from the source text (each registerCommand call, each configuration `get` with a fallback),
// not from a list kept beside it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS, CONTEXT_KEYS, NAMESPACE, REVIEW_PANEL_VIEW, VIEW_CONTAINER } from '../../src/vscode/contributions/contribution-ids';

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

function sources(dir: string): { file: string; text: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [{ file: path.relative(root, p), text: fs.readFileSync(p, 'utf8') }] : [];
  });
}
const adapter = [...sources(path.join(root, 'src/vscode')), { file: 'src/extension.ts', text: fs.readFileSync(path.join(root, 'src/extension.ts'), 'utf8') }];

/** The id of each `registerCommand(...)` call: a `COMMANDS.name` constant or a string literal. */
function registeredCommands(): string[] {
  const out: string[] = [];
  // guarded-command.ts is the wrapper every registration goes through (its own call names no id).
  for (const { file, text } of adapter.filter((f) => !f.file.endsWith('guarded-command.ts'))) {
    for (const m of text.matchAll(/register(?:Guarded)?Command\(\s*(?:log,\s*)?([^,)]+)/g)) {
      const arg = m[1].trim();
      const constant = /^COMMANDS\.(\w+)$/.exec(arg);
      const literal = /^'([^']+)'$/.exec(arg);
      if (constant) {
        assert.ok(constant[1] in COMMANDS, `${file}: COMMANDS.${constant[1]} does not exist`);
        out.push(COMMANDS[constant[1] as keyof typeof COMMANDS]);
      } else if (literal) out.push(literal[1]);
      else if (arg !== 'a.legacy') assert.fail(`${file}: registerCommand(${arg}) names its command in a way this test cannot read`);
    }
  }
  return out;
}

/** A TypeScript literal as written in a fallback: a single-quoted string, a number or a boolean. */
function literalValue(text: string): unknown {
  const t = text.trim();
  if (t.startsWith("'") && t.endsWith("'")) return t.slice(1, -1).replace(/\\'/g, "'").replace(/\\\\/g, '\\');
  if (t === 'true' || t === 'false') return t === 'true';
  const n = Number(t);
  assert.ok(t !== '' && !Number.isNaN(n), `fallback ${t} is not a literal`);
  return n;
}

describe('package.json manifest against the code', () => {
  it('contributes exactly the commands the extension registers', () => {
    const contributed = (pkg.contributes.commands as { command: string }[]).map((c) => c.command).sort();
    const registered = registeredCommands().sort();
    assert.deepEqual(registered, [...new Set(registered)].sort(), 'a command is registered twice');
    assert.deepEqual(contributed, registered);
    assert.deepEqual(contributed, Object.values(COMMANDS).sort());
  });

  it('registers every command through registerGuardedCommand (its errors go to the log and one short notification)', () => {
    // The legacy aliases only forward to a guarded command, which reports the error itself.
    const bare = adapter
      .filter((f) => !f.file.endsWith('guarded-command.ts') && !f.file.endsWith('legacy-command-aliases.ts'))
      .flatMap(({ file, text }) => [...text.matchAll(/commands\.registerCommand\(\s*([^,)]+)/g)].map((m) => `${file}: ${m[1].trim()}`));
    assert.deepEqual(bare, [], 'commands registered around the guard');
  });

  it('menus and key bindings name contributed commands only', () => {
    const contributed = new Set((pkg.contributes.commands as { command: string }[]).map((c) => c.command));
    for (const [menu, items] of Object.entries(pkg.contributes.menus as Record<string, { command: string }[]>)) {
      for (const item of items) assert.ok(contributed.has(item.command), `${menu}: ${item.command} is not contributed`);
    }
    // Every command that takes a tree node or a file argument is hidden from the palette.
    const palette = new Map((pkg.contributes.menus.commandPalette as { command: string; when: string }[]).map((m) => [m.command, m.when]));
    for (const id of [COMMANDS.compareWithPreviousCycle, COMMANDS.openReview, COMMANDS.revealInExplorer, COMMANDS.replanSlice, COMMANDS.showInPanel, COMMANDS.compareReviewFile]) {
      assert.equal(palette.get(id), 'false', `${id} shows in the command palette`);
    }
  });

  it('names its view container, view and context keys in its own namespace, as the code does', () => {
    assert.deepEqual(pkg.contributes.viewsContainers.activitybar.map((c: { id: string }) => c.id), [VIEW_CONTAINER]);
    assert.deepEqual(Object.keys(pkg.contributes.views), [VIEW_CONTAINER]);
    assert.deepEqual(pkg.contributes.views[VIEW_CONTAINER].map((v: { id: string }) => v.id), [REVIEW_PANEL_VIEW]);
    assert.deepEqual(pkg.contributes.viewsWelcome.map((w: { view: string }) => w.view), [REVIEW_PANEL_VIEW]);
    const keys = new Set<string>();
    const whens = [...Object.values(pkg.contributes.menus as Record<string, { when?: string }[]>).flat(), ...pkg.contributes.viewsWelcome].map((m) => m.when ?? '');
    for (const when of whens) for (const m of when.replace(/=~\s*\/(?:[^/\\]|\\.)*\//g, '').matchAll(/[A-Za-z][\w.]*/g)) keys.add(m[0]);
    // VS Code's own keys and operators' words, then ours.
    const ours = [...keys].filter((k) => !['view', 'viewItem', 'isWorkspaceTrusted', 'commentController', 'commentThread', 'false', 'true'].includes(k) && !k.startsWith(`${NAMESPACE}.`));
    assert.deepEqual(ours, [], 'when clauses use context keys outside our namespace');
    assert.ok(whens.some((w) => w.includes(CONTEXT_KEYS.projectFound)));
    // The successor's extension owns `gsd.*` and `@gsd`: nothing of ours may be called that.
    const text = JSON.stringify(pkg.contributes);
    assert.doesNotMatch(text, /"gsd\.|[\s!(]gsd\.|\^gsd\\\\/);
    assert.equal(pkg.contributes.chatParticipants, undefined);
    assert.equal(pkg.contributes.languageModelTools, undefined);
  });

  it('gives every setting the default the code falls back to', () => {
    const properties = pkg.contributes.configuration.properties as Record<string, { default: unknown }>;
    const fallbacks = new Map<string, unknown>();
    for (const { file, text } of adapter) {
      if (!text.includes(`getConfiguration('${NAMESPACE}')`)) continue;
      for (const m of text.matchAll(/\.get(?:<[^>]*>)?\('([\w.]+)',\s*('(?:[^'\\]|\\.)*'|[\w.-]+)\)/g)) {
        const key = `${NAMESPACE}.${m[1]}`;
        assert.ok(key in properties, `${file} reads ${key}, which package.json does not contribute`);
        fallbacks.set(key, literalValue(m[2]));
      }
    }
    assert.deepEqual([...fallbacks.keys()].sort(), Object.keys(properties).sort(), 'a contributed setting is never read with a fallback');
    for (const [key, fallback] of fallbacks) assert.deepEqual(fallback, properties[key].default, key);
  });
});
