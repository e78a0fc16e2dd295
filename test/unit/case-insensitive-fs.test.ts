// A case-insensitive file system (macOS, Windows, a FAT drive): `.GSD/GSD-Review-Loop/dispatch.json`
// is our dispatch record under another spelling. On Linux a realpath keeps the spelling it was given,
// so the guard that keeps an agent's edit tools out of our records compared two spellings of one file
// and let the edit through (found on a FAT image). Reading holds: GSD's own names are matched
// case-insensitively where GSD matches them, and an all-capitals tree reads.
// The FAT part mounts a vfat image through FUSE (`fusefat`, Debian's package; `mkfs.vfat` from
// dosfstools) and is skipped, saying why, where those or /dev/fuse are missing.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isProtectedRuntimePath } from '../../src/core/agent-hooks/hook-bridge';
import { buildCli } from './helpers/cli';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';
import { skipBecause } from '../shared/skip-because';

const SPELLINGS = ['.gsd/gsd-review-loop/dispatch.json', '.GSD/GSD-Review-Loop/dispatch.json', '.Gsd/GSD-REVIEW-LOOP/hook-log.jsonl'];

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

describe('a case-insensitive file system', function () {
  this.timeout(60_000);

  it('every spelling of our runtime folder is kept from an edit tool (on any file system)', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-case-')));
    try {
      fs.mkdirSync(path.join(root, '.gsd', 'gsd-review-loop'), { recursive: true });
      const protectedDir = path.join(root, '.gsd', 'gsd-review-loop');
      for (const p of SPELLINGS) assert.equal(isProtectedRuntimePath(protectedDir, root, p), true, p);
      assert.equal(isProtectedRuntimePath(protectedDir, root, '.gsd/milestones/M001/M001-ROADMAP.md'), false);
      assert.equal(isProtectedRuntimePath(protectedDir, root, 'src/gsd-review-loop/x.ts'), false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('on a case-sensitive one, .GSD beside .gsd: .gsd is the project, .GSD is never read as ours nor written', async function () {
    const cli = await buildCli();
    const S = '.gsd/milestones/M001/slices/S01';
    const root = writeTree({
      '.gsd/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n---\n',
      '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
      [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
      [`${S}/tasks/T01-PLAN.md`]: '# T01: Render invoice\n',
      [`${S}/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
      // Another tree under the other spelling: a finished project, and a record saying nothing is in flight.
      '.GSD/milestones/M009/M009-ROADMAP.md': roadmap('M009', 'Planted', [{ id: 'S01', title: 'Planted', done: true }]),
      '.GSD/gsd-review-loop/dispatch.json': '{\n  "current": null,\n  "history": []\n}\n',
      'src/invoice.ts': 'export const invoice = 1;\n',
    });
    // Where the temp folder is case-insensitive itself (macOS), the two spellings are one folder.
    if (fs.existsSync(path.join(root, '.GSD', 'PREFERENCES.md'))) return skipBecause(this, 'the temp folder is case-insensitive itself: .GSD and .gsd are one folder');
    const planted = () => Object.fromEntries(fs.readdirSync(path.join(root, '.GSD'), { recursive: true }).map(String).sort().map((f) => [f, fs.statSync(path.join(root, '.GSD', f)).isFile() ? fs.readFileSync(path.join(root, '.GSD', f), 'utf8') : 'dir']));
    const before = planted();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
    const env = { PATH: process.env.PATH, HOME: home, GSD_REVIEW_CLI: cli, CLAUDE_PROJECT_DIR: root };
    const state = spawnSync(process.execPath, [cli, 'state', '--json', '--root', root], { encoding: 'utf8', env });
    assert.equal(state.status, 0, state.stderr);
    assert.deepEqual((JSON.parse(state.stdout) as { milestones: Array<{ id: string }> }).milestones.map((m) => m.id), ['M001']);
    assert.equal(spawnSync(process.execPath, [cli, 'install-hooks', '--host', 'claude', '--root', root], { encoding: 'utf8', env }).status, 0);
    const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    const run = (event: string, fields: Record<string, unknown>) => {
      const r = spawnSync('/bin/sh', ['-c', settings.hooks[event][0].hooks[0].command], { cwd: root, encoding: 'utf8', input: JSON.stringify({ session_id: 'c', cwd: root, hook_event_name: event, ...fields }), env });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout ? (JSON.parse(r.stdout) as { reason?: string; hookSpecificOutput?: { permissionDecision?: string } }) : null;
    };
    assert.match(run('Stop', { stop_hook_active: false })?.reason ?? '', /review cycle 1 of 5 for T01/);
    run('SubagentStart', { agent_id: 'r', agent_type: 'gsd-reviewer' });
    // The launcher's shell walk and the bridge both read .gsd's record (a review in flight), not .GSD's (nothing).
    assert.equal(run('PreToolUse', { tool_name: 'Write', tool_input: { file_path: path.join(root, 'src/invoice.ts'), content: 'x' } })?.hookSpecificOutput?.permissionDecision, 'deny');
    assert.match(fs.readFileSync(path.join(root, '.gsd/gsd-review-loop/dispatch.json'), 'utf8'), /"unitType": "review-task"/);
    assert.deepEqual(planted(), before);
  });

  describe('on a FAT image (fusefat)', () => {
    let image: string;
    let mount: string;
    let cli: string;
    before(async function () {
      const missing = ['fusefat', 'mkfs.vfat'].filter((c) => !which(c));
      if (missing.length > 0 || !fs.existsSync('/dev/fuse')) {
        return skipBecause(this, missing.length ? `no ${missing.join(', ')} (apt-get install fusefat dosfstools)` : 'no /dev/fuse');
      }
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-fat-'));
      image = path.join(dir, 'fat.img');
      mount = path.join(dir, 'mnt');
      fs.mkdirSync(mount);
      const made = spawnSync('mkfs.vfat', ['-C', image, '16384'], { encoding: 'utf8' });
      const mounted = made.status === 0 ? spawnSync('fusefat', ['-o', 'rw+', image, mount], { encoding: 'utf8', timeout: 20_000 }) : made;
      if (mounted.status !== 0) {
        fs.rmSync(dir, { recursive: true, force: true });
        return skipBecause(this, `the FAT image could not be mounted (${(mounted.stderr || mounted.stdout || '').trim().split('\n')[0]})`);
      }
      cli = await buildCli();
    });
    after(() => {
      if (!mount) return;
      spawnSync('umount', [mount], { timeout: 20_000 });
      fs.rmSync(path.dirname(mount), { recursive: true, force: true });
    });

    it('is case-insensitive: .GSD and .gsd are one folder', () => {
      fs.mkdirSync(path.join(mount, 'probe', '.GSD'), { recursive: true });
      fs.writeFileSync(path.join(mount, 'probe', '.GSD', 'x.md'), 'x');
      assert.equal(fs.readFileSync(path.join(mount, 'probe', '.gsd', 'X.MD'), 'utf8'), 'x');
    });

    it('the agent hook denies an edit of our dispatch record under another spelling', () => {
      const root = path.join(mount, 'guarded');
      fs.mkdirSync(path.join(root, '.gsd', 'milestones'), { recursive: true });
      fs.mkdirSync(path.join(root, '.gsd', 'gsd-review-loop'));
      fs.writeFileSync(path.join(root, '.gsd', 'gsd-review-loop', 'dispatch.json'), '{}');
      for (const file of SPELLINGS.slice(0, 2)) {
        const event = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: root, tool_name: 'Write', tool_input: { file_path: file, content: '{"unitId":"planted"}' } });
        const r = spawnSync(process.execPath, [cli, 'hook', '--root', root], { input: event, encoding: 'utf8', timeout: 30_000, env: { ...process.env, HOME: os.tmpdir() } });
        assert.equal(r.status, 0, r.stderr);
        const answer = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
        assert.equal(answer.hookSpecificOutput?.permissionDecision, 'deny', `${file}: ${r.stdout}`);
      }
      assert.equal(fs.readFileSync(path.join(root, '.gsd', 'gsd-review-loop', 'dispatch.json'), 'utf8'), '{}');
    });

    it('a whole review cycle through the installed hooks, on a project whose folder is spelled .GSD: installed, guarded, logged, ignored by git, uninstalled', () => {
      const root = path.join(mount, 'hooks-flow');
      const S = '.GSD/milestones/M001/slices/S01';
      const files: Record<string, string> = {
        '.GSD/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n---\n',
        '.GSD/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
        [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
        [`${S}/tasks/T01-PLAN.md`]: '# T01: Render invoice\n',
        [`${S}/tasks/T02-PLAN.md`]: '# T02: Attach logo\n',
        [`${S}/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
        'src/invoice.ts': 'export const invoice = 1;\n',
      };
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), text);
      }
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
      const env = { PATH: process.env.PATH, HOME: home, GSD_REVIEW_CLI: cli, CLAUDE_PROJECT_DIR: root };
      // FAT has no executable bit (chmod: ENOSYS) and no hard links (link: EPERM).
      const installed = spawnSync(process.execPath, [cli, 'install-hooks', '--host', 'claude', '--root', root], { encoding: 'utf8', env });
      assert.equal(installed.status, 0, installed.stderr);
      const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
      const run = (event: string, fields: Record<string, unknown>) => {
        const r = spawnSync('/bin/sh', ['-c', settings.hooks[event][0].hooks[0].command], { cwd: root, encoding: 'utf8', timeout: 30_000, input: JSON.stringify({ session_id: 'f', cwd: root, hook_event_name: event, ...fields }), env });
        assert.equal(r.status, 0, r.stderr);
        return r.stdout ? (JSON.parse(r.stdout) as { decision?: string; reason?: string; hookSpecificOutput?: { permissionDecision?: string } }) : null;
      };
      assert.match(run('Stop', { stop_hook_active: false })?.reason ?? '', /review cycle 1 of 5 for T01/);
      run('SubagentStart', { agent_id: 'r', agent_type: 'gsd-reviewer' });
      const write = (file: string) => run('PreToolUse', { tool_name: 'Write', tool_input: { file_path: file, content: 'x' }, agent_id: 'r', agent_type: 'gsd-reviewer' })?.hookSpecificOutput?.permissionDecision;
      assert.equal(write(path.join(root, 'src/invoice.ts')), 'deny');
      // The review file as the prompt names it (`.gsd/…`) and as the folder is spelled: the same file.
      assert.equal(write(path.join(root, '.gsd/milestones/M001/slices/S01/tasks/T01-CODE-REVIEW.md')), 'allow');
      const runtime = path.join(root, '.GSD', 'gsd-review-loop');
      assert.match(fs.readFileSync(path.join(runtime, '.gitignore'), 'utf8'), /^\*$/m, 'our runtime folder is offered to git');
      // Logged (fusefat writes only files it creates: the appends after the first one get EPERM, which
      // the bridge says on stderr; the kernel's vfat appends).
      assert.match(fs.readFileSync(path.join(runtime, 'hooks.jsonl'), 'utf8'), /"event":"Stop"/);
      const removed = spawnSync(process.execPath, [cli, 'uninstall-hooks', '--host', 'claude', '--root', root], { encoding: 'utf8', env });
      assert.equal(removed.status, 0, removed.stderr);
      assert.equal(fs.existsSync(path.join(root, '.claude')), false);
    });

    it('an all-capitals tree (.GSD, MILESTONES, t01-plan.md) reads as GSD reads it', () => {
      const root = path.join(mount, 'upper');
      const slice = path.join(root, '.GSD', 'MILESTONES', 'M001', 'SLICES', 'S01');
      fs.mkdirSync(path.join(slice, 'TASKS'), { recursive: true });
      fs.writeFileSync(path.join(root, '.GSD', 'MILESTONES', 'M001', 'm001-roadmap.md'), '# M001: Cart\n\n## Slices\n\n- [ ] **S01: Cart model** `risk:low` `depends:[]`\n');
      fs.writeFileSync(path.join(slice, 's01-plan.md'), '# S01: Cart model\n\n## Tasks\n\n- [ ] **T01: Model** `est:30m`\n');
      fs.writeFileSync(path.join(slice, 'TASKS', 't01-plan.md'), '# T01: Model\n');
      const r = spawnSync(process.execPath, [cli, 'state', '--root', root], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, HOME: os.tmpdir() } });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /task:\s+T01 Model/);
      assert.match(r.stdout, /slice:\s+S01 Cart model/);
    });
  });
});
