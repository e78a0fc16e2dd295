// package.json against the code: what the manifest contributes is what the extension registers,
// and every contributed setting is read through one typed module that leaves its default to
// package.json. The code side is read from the source text (each registerCommand call, the Settings
// interface, each getConfiguration), not from a list kept beside it.
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

  it("sets context keys only through contributions/context.ts (each key's value typed there)", () => {
    const around = adapter.filter((f) => !f.file.endsWith(path.join('contributions', 'context.ts')) && f.text.includes("'setContext'")).map((f) => f.file);
    assert.deepEqual(around, [], 'setContext called around the typed module');
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

  it('reads the settings package.json contributes through one typed module, and writes their defaults nowhere else', () => {
    const properties = pkg.contributes.configuration.properties as Record<string, { default: unknown; type: string; enum?: string[] }>;
    const module = adapter.find((f) => f.file === path.join('src', 'vscode', 'contributions', 'settings.ts'));
    assert.ok(module, 'no settings module (src/vscode/contributions/settings.ts)');
    // The keys of its Settings interface, with their types as written.
    const body = /export interface Settings \{([^}]*)\}/.exec(module.text)![1];
    const typed = new Map([...body.matchAll(/'([\w.]+)': (\w+);/g)].map((m) => [`${NAMESPACE}.${m[1]}`, m[2]]));
    assert.deepEqual([...typed.keys()].sort(), Object.keys(properties).sort(), 'Settings names exactly the contributed settings');
    for (const [key, type] of typed) {
      const p = properties[key];
      // An enum's type is its union's name; a plain one is the JSON schema's type.
      if (!p.enum) assert.equal(type, p.type, key);
      assert.notEqual(p.default, undefined, `${key} contributes no default, so VS Code would answer undefined`);
    }
    // VS Code answers the contributed default: a fallback in a get(…) would be a second copy of it.
    assert.doesNotMatch(module.text, /\.get(?:<[^>]*>)?\([^)]*,/, 'settings.ts reads a setting with a fallback');
    const elsewhere = adapter.filter((f) => f !== module && /getConfiguration\(/.test(f.text)).map((f) => f.file);
    assert.deepEqual(elsewhere, [], 'settings read around the settings module');
  });
});
