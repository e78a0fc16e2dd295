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

  describe('on a FAT image (fusefat)', () => {
    let image: string;
    let mount: string;
    let cli: string;
    before(async function () {
      const missing = ['fusefat', 'mkfs.vfat'].filter((c) => !which(c));
      if (missing.length > 0 || !fs.existsSync('/dev/fuse')) {
        console.log(`      skipped: ${missing.length ? `no ${missing.join(', ')} (apt-get install fusefat dosfstools)` : 'no /dev/fuse'}`);
        return this.skip();
      }
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-fat-'));
      image = path.join(dir, 'fat.img');
      mount = path.join(dir, 'mnt');
      fs.mkdirSync(mount);
      const made = spawnSync('mkfs.vfat', ['-C', image, '16384'], { encoding: 'utf8' });
      const mounted = made.status === 0 ? spawnSync('fusefat', ['-o', 'rw+', image, mount], { encoding: 'utf8', timeout: 20_000 }) : made;
      if (mounted.status !== 0) {
        console.log(`      skipped: the FAT image could not be mounted (${(mounted.stderr || mounted.stdout || '').trim().split('\n')[0]})`);
        fs.rmSync(dir, { recursive: true, force: true });
        return this.skip();
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
