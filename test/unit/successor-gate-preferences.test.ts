// Our post-unit hook entry in the successor's PREFERENCES.md: added without touching any other byte,
// taken out leaving exactly the bytes that were there. "What GSD reads" is read here the way
// gsd-pi 1.16.1 reads it (preferences.ts: the frontmatter from `---\n`/`---\r\n` to the first
// `\n---`, `\r` removed, the `yaml` package's parse), and the values GSD must find are written out
// below from its docs (preferences-reference.md "post_unit_hooks") and issue 37, not from our code.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildCli, cli } from './helpers/cli';
import { writeSuccessorLayout } from './helpers/successor-project';
import { addGateEntry, gateEntryState, PreferencesEditRefused, removeGateEntry } from '../../src/core/successor-gate/preferences-entry';
import { preferencesAsGsdReads } from '../../src/core/successor-gate/gate-config';

/** What gsd-pi's preferences reader makes of a PREFERENCES.md: its frontmatter data, or null. */
function gsdReads(text: string): Record<string, unknown> | null {
  const start = text.startsWith('---\r\n') ? 5 : text.startsWith('---\n') ? 4 : -1;
  if (start === -1) return null;
  const end = text.indexOf('\n---', start);
  if (end === -1) return null;
  return (parseYaml(text.slice(start, end).replace(/\r/g, '')) as Record<string, unknown> | null) ?? {};
}

type Hook = Record<string, unknown>;
const hooks = (text: string): Hook[] => (gsdReads(text)?.post_unit_hooks as Hook[] | undefined) ?? [];
const preHooks = (text: string): Hook[] => (gsdReads(text)?.pre_dispatch_hooks as Hook[] | undefined) ?? [];

/** Our pre-dispatch entry as GSD must see it: before each execute-task, the prompt points at the open issues. */
function assertIssuesPointer(h: Hook | undefined): void {
  assert.ok(h, 'our pre-dispatch hook is there');
  assert.equal(h.name, 'gsd-review-loop-issues');
  assert.deepEqual(h.before, ['execute-task']);
  assert.equal(h.action, 'modify');
  assert.match(String(h.append), /\.gsd\/gsd-review-loop\/gate\/\{milestoneId\}\/\{sliceId\}\/\{taskId\}\/OPEN-ISSUES\.md/);
}

/** The lines of `before` appear in `after` in the same order, but for those `replaced`. */
function assertKeptInOrder(before: string, after: string, replaced: string[] = []): void {
  const want = before.split('\n').filter((l) => !replaced.includes(l));
  const have = after.split('\n');
  let i = 0;
  for (const l of have) if (i < want.length && l === want[i]) i++;
  assert.equal(i, want.length, `line ${i + 1} of the original (${JSON.stringify(want[i])}) is not kept in order`);
}

/** Our entry as GSD must see it (issue 37: blocking, after execute-task, 5 cycles, retry-task on the gate artifact). */
function assertOurs(h: Hook | undefined): void {
  assert.ok(h, 'our hook is there');
  assert.equal(h.name, 'gsd-review-loop');
  assert.deepEqual(h.after, ['execute-task']);
  assert.equal(h.criticality, 'blocking');
  assert.equal(h.max_cycles, 5);
  assert.equal(h.artifact, 'CODE-REVIEW.md');
  assert.deepEqual(h.on_block, { action: 'retry-task', artifact: 'CODE-REVIEW.md' });
  assert.match(String(h.prompt), /gate \{milestoneId\}\/\{sliceId\}\/\{taskId\}/);
  assert.match(String(h.prompt), /gate \{milestoneId\}\/\{sliceId\}\/\{taskId\} --done/);
}

// GSD's own template (src/resources/extensions/gsd/templates/PREFERENCES.md), shortened: `post_unit_hooks: []`
// between other keys, comments after it, and a body.
const TEMPLATE = [
  '---',
  'version: 1',
  'mode:',
  'git:',
  '  isolation:',
  'remote_questions: false',
  '# To enable remote questions, replace `false` with:',
  '# remote_questions:',
  '#   channel: telegram',
  'uat_dispatch:',
  'post_unit_hooks: []',
  'pre_dispatch_hooks: []',
  '# language:',
  '---',
  '',
  '# GSD Skill Preferences',
  '',
  'See the preferences reference.',
  '',
].join('\n');

const WITH_HOOKS = [
  '---',
  'version: 1',
  '# our team review, keep it first',
  'post_unit_hooks:',
  '    - name: security-scan   # runs first',
  '      after:',
  '        - execute-task',
  '      prompt: |',
  '        Scan {taskId} for secrets.',
  '',
  '        Write SECURITY.md.',
  '      artifact: SECURITY.md',
  '    - name: notes',
  '      after: [execute-task]',
  '      prompt: "Write notes for {sliceId}."',
  '      enabled: false',
  '# trailing comment about hooks',
  'models: { execute-task: claude-sonnet-4 }',
  '---',
  'Body text.',
  '',
].join('\n');

function roundTrip(before: string): string {
  const installed = addGateEntry(before);
  // The gate reads its settings with js-yaml's core schema (it is loaded where yaml is not): the same hooks GSD's yaml reads.
  assert.deepEqual(preferencesAsGsdReads(installed)?.post_unit_hooks, gsdReads(installed)?.post_unit_hooks);
  assert.notEqual(installed, before);
  assert.equal(removeGateEntry(installed), before, 'uninstall gives back the exact bytes');
  return installed;
}

describe('successor gate: our entry in PREFERENCES.md', () => {
  it("GSD's template (post_unit_hooks: []): one line replaced, everything else byte for byte, and back", () => {
    const after = roundTrip(TEMPLATE);
    const [ours, ...others] = hooks(after);
    assertOurs(ours);
    assert.equal(others.length, 0);
    assert.equal(preHooks(after).length, 1);
    assertIssuesPointer(preHooks(after)[0]);
    // Every other line of the template is there, in order; the bytes before the first replaced line are its own.
    assertKeptInOrder(TEMPLATE, after, ['post_unit_hooks: []', 'pre_dispatch_hooks: []']);
    assert.ok(after.startsWith(TEMPLATE.slice(0, TEMPLATE.indexOf('post_unit_hooks: []\n'))));
    assert.equal(gsdReads(after)?.remote_questions, false);
    assert.ok(after.endsWith('\n# GSD Skill Preferences\n\nSee the preferences reference.\n'));
  });

  it('other hooks (block list, comments, block scalars, four-space indent): ours goes last, theirs unchanged', () => {
    const after = roundTrip(WITH_HOOKS);
    const list = hooks(after);
    assert.deepEqual(list.map((h) => h.name), ['security-scan', 'notes', 'gsd-review-loop']);
    assert.deepEqual(list.slice(0, 2), hooks(WITH_HOOKS));
    assertOurs(list[2]);
    assertIssuesPointer(preHooks(after)[0]);
    assert.ok(after.startsWith(WITH_HOOKS.slice(0, WITH_HOOKS.indexOf('# trailing comment'))), 'the bytes before our lines are the same');
    assert.ok(after.endsWith('---\nBody text.\n'), 'and the body after the frontmatter');
    assertKeptInOrder(WITH_HOOKS, after);
    // Our lines use the list's own indentation.
    assert.match(after, /\n {4}- name: gsd-review-loop\n/);
  });

  it('a CRLF file stays CRLF, every line', () => {
    const crlf = WITH_HOOKS.replace(/\n/g, '\r\n');
    const after = roundTrip(crlf);
    assert.equal(after.split('\n').slice(0, -1).filter((l) => !l.endsWith('\r')).length, 0, 'no bare LF line');
    assertOurs(hooks(after)[2]);
  });

  it('no post_unit_hooks key: the key and our entry go last in the frontmatter', () => {
    const before = '---\nversion: 1\ngit:\n  isolation: worktree\n---\n# Prefs\n';
    const after = roundTrip(before);
    assertOurs(hooks(after)[0]);
    assert.deepEqual(gsdReads(after)?.git, { isolation: 'worktree' });
  });

  it('an empty post_unit_hooks key (null) is replaced and restored', () => {
    const before = '---\nversion: 1\npost_unit_hooks:\nskill_rules: []\n---\n';
    const after = roundTrip(before);
    assertOurs(hooks(after)[0]);
    assert.deepEqual(gsdReads(after)?.skill_rules, []);
  });

  it('a file without frontmatter gets one; uninstall takes it away again', () => {
    const before = 'Notes for the team: we run GSD in auto mode.\n';
    const after = roundTrip(before);
    assertOurs(hooks(after)[0]);
    assert.ok(after.endsWith('---\nNotes for the team: we run GSD in auto mode.\n'));
  });

  it('no file at all: one is made that GSD reads; uninstall leaves it empty', () => {
    const after = addGateEntry(null);
    assertOurs(hooks(after)[0]);
    assert.equal(removeGateEntry(after), '');
  });

  it('installing twice changes nothing the second time', () => {
    const once = addGateEntry(TEMPLATE);
    assert.equal(addGateEntry(once), once);
    assert.equal(gateEntryState(once), 'ours');
  });

  it('an older entry of ours is brought up to date in place, and uninstall still restores the original bytes', () => {
    const once = addGateEntry(TEMPLATE);
    const older = once.replace('max_cycles: 5', 'max_cycles: 3');
    assert.notEqual(older, once);
    assert.equal(gateEntryState(older), 'ours-outdated');
    const updated = addGateEntry(older);
    assert.equal(updated, once);
    assert.equal(removeGateEntry(updated), TEMPLATE);
  });

  it('an edit elsewhere after install is kept by uninstall', () => {
    const installed = addGateEntry(TEMPLATE);
    const edited = installed.replace('version: 1', 'version: 1\ntoken_profile: budget');
    const removed = removeGateEntry(edited);
    assert.equal(removed, TEMPLATE.replace('version: 1', 'version: 1\ntoken_profile: budget'));
  });

  describe('refusals (nothing written, one line why)', () => {
    const refuses = (text: string | null, why: RegExp) => assert.throws(() => addGateEntry(text), (e: unknown) => e instanceof PreferencesEditRefused && why.test((e as Error).message) && !(e as Error).message.includes('\n'));

    it('a hook of our name that is not ours is never overwritten', () => {
      const foreign = '---\npost_unit_hooks:\n  - name: gsd-review-loop\n    after: [execute-task]\n    prompt: my own thing\n---\n';
      assert.equal(gateEntryState(foreign), 'foreign');
      refuses(foreign, /already has a hook named gsd-review-loop or gsd-review-loop-issues that GSD Review Loop did not write/);
      const foreignPre = '---\npre_dispatch_hooks:\n  - name: gsd-review-loop-issues\n    before: [execute-task]\n    action: skip\n---\n';
      assert.equal(gateEntryState(foreignPre), 'foreign');
      refuses(foreignPre, /did not write/);
    });

    it('the "## Heading" form without frontmatter (frontmatter would hide those settings from GSD)', () => {
      refuses('## Git\n- isolation: none\n', /Heading" form/);
    });

    it('a flow list with hooks in it', () => {
      refuses('---\npost_unit_hooks: [{name: x, after: [execute-task], prompt: y}]\n---\n', /flow style/);
    });

    it('what GSD ignores the gate ignores too: duplicate keys, a merge key that yaml 1.2 does not merge', () => {
      assert.equal(preferencesAsGsdReads('---\npost_unit_hooks: []\npost_unit_hooks: []\n---\n'), null);
      const merged = '---\nbase: &b\n  max_cycles: 1\npost_unit_hooks:\n  - name: gsd-review-loop\n    <<: *b\n---\n';
      assert.deepEqual(preferencesAsGsdReads(merged)?.post_unit_hooks, gsdReads(merged)?.post_unit_hooks);
    });

    it('broken YAML, a frontmatter GSD never closes, a byte-order mark', () => {
      refuses('---\nversion: 1\npost_unit_hooks: [\n---\n', /not valid YAML/);
      refuses('---\nversion: 1\n', /no closing ---/);
      refuses('\ufeff---\nversion: 1\n---\n', /byte-order mark/);
    });
  });
});

describe('successor gate: install-hooks --host gsd through the CLI', function () {
  this.timeout(120_000);
  let script: string;
  before(async () => {
    script = await buildCli();
  });
  const homeDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gate-home-'));
  const run = (home: string, ...args: string[]) => cli(script, args, undefined, { HOME: home, GSD_HOME: path.join(home, '.gsd') });

  it('previews, installs, and uninstall leaves PREFERENCES.md byte for byte as it was', () => {
    const { root } = writeSuccessorLayout({ '.gsd/PREFERENCES.md': TEMPLATE.replace(/\n/g, '\r\n') });
    const home = homeDir();
    const prefs = path.join(root, '.gsd', 'PREFERENCES.md');
    const before = fs.readFileSync(prefs);
    const dry = run(home, 'install-hooks', '--host', 'gsd', '--root', root, '--dry-run');
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /would update \.gsd\/PREFERENCES\.md/);
    assert.match(dry.stdout, /- name: gsd-review-loop/);
    assert.deepEqual(fs.readFileSync(prefs), before, 'a dry run writes nothing');
    const inst = run(home, 'install-hooks', '--host', 'gsd', '--root', root);
    assert.equal(inst.status, 0, inst.stderr);
    assertOurs(hooks(fs.readFileSync(prefs, 'utf8'))[0]);
    assert.ok(fs.statSync(path.join(home, '.gsd-review-loop', 'gsd-review')).mode & 0o100, 'the launcher the prompt runs is there and executable');
    const un = run(home, 'uninstall-hooks', '--host', 'gsd', '--root', root);
    assert.equal(un.status, 0, un.stderr);
    assert.deepEqual(fs.readFileSync(prefs), before);
  });

  it('a user-level hook of our name that is not ours: the project install writes nothing and says why', () => {
    const { root } = writeSuccessorLayout({ '.gsd/PREFERENCES.md': TEMPLATE });
    const home = homeDir();
    fs.mkdirSync(path.join(home, '.gsd'));
    fs.writeFileSync(path.join(home, '.gsd', 'PREFERENCES.md'), '---\npost_unit_hooks:\n  - name: gsd-review-loop\n    after: [execute-task]\n    prompt: my own review\n---\n');
    const r = run(home, 'install-hooks', '--host', 'gsd', '--root', root);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /has a post-unit hook named gsd-review-loop that GSD Review Loop did not write; a project entry of that name would replace it/);
    assert.equal(fs.readFileSync(path.join(root, '.gsd', 'PREFERENCES.md'), 'utf8'), TEMPLATE);
  });

  it('--user writes $GSD_HOME/PREFERENCES.md, and takes it away again when it made it', () => {
    const home = homeDir();
    const r = run(home, 'install-hooks', '--host', 'gsd', '--user');
    assert.equal(r.status, 0, r.stderr);
    const file = path.join(home, '.gsd', 'PREFERENCES.md');
    assertOurs(hooks(fs.readFileSync(file, 'utf8'))[0]);
    assert.equal(run(home, 'uninstall-hooks', '--host', 'gsd', '--user').status, 0);
    assert.equal(fs.existsSync(file), false);
  });

  it('a markdown project is not one of the successor: said, nothing written', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'md-project-'));
    fs.mkdirSync(path.join(root, '.gsd', 'milestones'), { recursive: true });
    const r = run(homeDir(), 'install-hooks', '--host', 'gsd', '--root', root);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--host gsd is for projects of GSD's successor/);
    assert.equal(fs.existsSync(path.join(root, '.gsd', 'PREFERENCES.md')), false);
  });
});
