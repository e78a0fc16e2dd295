// `gsd-review` starts the CLI bundle with a V8 code cache (src/cli-launcher.ts). The cache may only
// ever change speed: these runs check that output, errors and ES-module user hooks are the same with
// no cache, a fresh one, a corrupt one, and none possible.
import * as assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, cli } from './helpers/cli';
import { copySample } from './helpers/gsd-tree';

/** A private copy of the built CLI, so this suite owns its cache folder. */
async function cliCopy(): Promise<{ script: string; cacheDir: string }> {
  const built = path.dirname(await buildCli());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-launcher-'));
  for (const name of ['cli.js', 'cli-main.js', 'cli-agent-hooks.js', 'cli-gate.js', 'vendor-yaml.js']) fs.copyFileSync(path.join(built, name), path.join(dir, name));
  return { script: path.join(dir, 'cli.js'), cacheDir: path.join(dir, '.v8-cache') };
}

const cacheFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

describe('gsd-review launcher (V8 code cache)', function () {
  this.timeout(60_000);

  it('gives the same answer without a cache, with the cache it wrote, and with a corrupt one', async () => {
    const { script, cacheDir } = await cliCopy();
    const root = copySample();
    const first = cli(script, ['next', '--json', '--root', root]);
    assert.equal(first.status, 0, first.stderr);
    const written = cacheFiles(cacheDir);
    // One file per Node version, architecture, build of the bundle (size, time) and command.
    assert.match(written.join(), /^cli-main-v\d+\.\d+\.\d+-\w+-\d+-\d+-next\.bin$/);
    assert.ok(written.length > 0, 'a cache was written');

    // The sample's answer (its T02 review asks for changes), not only "the same as before".
    assert.equal(first.json.unitType, 'fix-task');
    assert.equal(first.json.unitId, 'M002-k7q2xz/S02/T02');
    const cacheFile = path.join(cacheDir, written[0]);
    const made = fs.readFileSync(cacheFile);

    // V8 accepted the cache: a rejected one is written again at exit; an accepted one is left.
    const second = cli(script, ['next', '--json', '--root', root]);
    assert.equal(second.stdout, first.stdout);
    assert.ok(fs.readFileSync(cacheFile).equals(made), 'the cache was rejected and written again');

    fs.writeFileSync(cacheFile, 'not a V8 code cache');
    const third = cli(script, ['next', '--json', '--root', root]);
    assert.equal(third.status, 0, third.stderr);
    assert.equal(third.stdout, first.stdout);
    // The corrupt cache was rejected (not run), and a good one made in its place.
    assert.notEqual(fs.readFileSync(cacheFile, 'utf8'), 'not a V8 code cache');
  });

  it('keeps a cache per command: state gets its own, and next keeps the one it made', async () => {
    const { script, cacheDir } = await cliCopy();
    const root = copySample();
    assert.equal(cli(script, ['next', '--json', '--root', root]).status, 0);
    const [nextCache] = cacheFiles(cacheDir);
    const made = fs.readFileSync(path.join(cacheDir, nextCache));
    const state = cli(script, ['state', '--json', '--root', root]);
    assert.equal(state.status, 0, state.stderr);
    assert.equal(state.json.phase, 'executing');
    const files = cacheFiles(cacheDir).sort();
    assert.deepEqual(files.map((f) => f.replace(/^cli-main-.*-\d+-\d+-/, '')), ['next.bin', 'state.bin']);
    assert.ok(fs.readFileSync(path.join(cacheDir, nextCache)).equals(made), "next's cache was left as it was");
    // A cache of another build of the bundle goes when this one writes.
    const stale = path.join(cacheDir, nextCache.replace(/-(\d+)-(\d+)-next\.bin$/, '-1-1-next.bin'));
    fs.writeFileSync(stale, 'an older build');
    // (complete: a command with no cache yet, so this run writes one; nothing is in flight, which it says.)
    assert.match(cli(script, ['complete', '--root', root]).stderr, /gsd-review: /);
    assert.equal(fs.existsSync(stale), false);
    assert.ok(cacheFiles(cacheDir).some((f) => f.endsWith('-complete.bin')));
  });

  it('starts the agent-hook commands from their own bundle, which the project commands never load', async () => {
    const { script, cacheDir } = await cliCopy();
    const root = copySample();
    const payload = JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: root, source: 'startup' });
    // `--root` before the command word, and an option parseArgs must read: the launcher finds `hook` as the CLI does.
    const hook = cli(script, ['--root', root, 'hook', '--event', 'SessionStart'], payload);
    assert.equal(hook.status, 0, hook.stderr);
    assert.match(hook.json.hookSpecificOutput.additionalContext, /GSD project: phase executing/);
    assert.equal(cli(script, ['next', '--json', '--root', root]).status, 0);
    assert.deepEqual(cacheFiles(cacheDir).map((f) => f.replace(/-v\d+\.\d+\.\d+-\w+-\d+-\d+-/, ' ')).sort(), ['cli-agent-hooks hook.bin', 'cli-main next.bin']);
    // The project bundle has no hook bridge in it; run directly, it says where the command is.
    const dir = path.dirname(script);
    assert.ok(fs.statSync(path.join(dir, 'cli-main.js')).size < fs.statSync(path.join(dir, 'cli-agent-hooks.js')).size);
    const direct = cli(path.join(dir, 'cli-main.js'), ['hook', '--root', root], payload);
    assert.equal(direct.status, 0);
    assert.match(direct.stderr, /^gsd-review: hook is in dist\/cli-agent-hooks\.js; run gsd-review through dist\/cli\.js/m);
  });

  it('decodes the bundle as UTF-8 unless it is ASCII, with and without its cache', async () => {
    const { script } = await cliCopy();
    const main = path.join(path.dirname(script), 'cli-main.js');
    // The production bundle is ASCII (esbuild.mjs refuses one that is not) and is read as one-byte
    // text; a bundle with UTF-8 in it (a development build keeps comments) read so would print mojibake.
    const bundles = {
      ascii: "process.stdout.write('Verdict \\u2705 \\u2014 r\\u00e9sum\\u00e9\\n');\n",
      utf8: "// “a comment”\nprocess.stdout.write('Verdict ✅ — résumé\\n');\n",
    };
    for (const [kind, source] of Object.entries(bundles)) {
      fs.writeFileSync(main, source);
      assert.equal(isAscii(fs.readFileSync(main)), kind === 'ascii');
      for (const run of ['no cache', 'its cache']) {
        const r = cli(script, ['next']);
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout, 'Verdict ✅ — résumé\n', `${kind} bundle, ${run}`);
      }
    }
  });

  it('runs a bundle replaced by another of the same size and time as it now is, not the old one\'s cache', async () => {
    const { script, cacheDir } = await cliCopy();
    const root = copySample();
    const before = cli(script, ['next', '--json', '--root', root]);
    assert.equal(before.json.reason, 'fix the 2 open issue(s) of T02, cycle 2 of 5');
    assert.equal(cacheFiles(cacheDir).length, 1);
    // An update (or a hand edit) that keeps the size, with the time put back: V8 checks a cache
    // against the source's length only.
    const main = path.join(path.dirname(script), 'cli-main.js');
    const stat = fs.statSync(main, { bigint: true });
    const text = fs.readFileSync(main, 'latin1');
    assert.ok(text.includes('open issue(s)'));
    // The time to the nanosecond (touch -r; a Date or seconds as a float would round it).
    const reference = `${main}.time`;
    assert.equal(spawnSync('touch', ['-r', main, reference]).status, 0);
    fs.writeFileSync(main, text.split('open issue(s)').join('OPEN ISSUE(S)'), 'latin1');
    assert.equal(spawnSync('touch', ['-r', reference, main]).status, 0);
    assert.deepEqual([fs.statSync(main, { bigint: true }).size, fs.statSync(main, { bigint: true }).mtimeNs], [stat.size, stat.mtimeNs]);
    for (const run of ['the old cache there', 'the cache made again']) {
      const after = cli(script, ['next', '--json', '--root', root]);
      assert.equal(after.status, 0, after.stderr);
      assert.equal(after.json.reason, 'fix the 2 OPEN ISSUE(S) of T02, cycle 2 of 5', run);
    }
  });

  it('never reads more of a cache file than a cache can be: a link to /dev/zero, a FIFO, a huge file are passed over at once', async function () {
    const { script, cacheDir } = await cliCopy();
    const root = copySample();
    const first = cli(script, ['state', '--json', '--root', root]);
    assert.equal(first.status, 0, first.stderr);
    const [name] = cacheFiles(cacheDir);
    const file = path.join(cacheDir, name);
    const plant: Record<string, () => void> = {
      'a link to /dev/zero': () => fs.symlinkSync('/dev/zero', file),
      'a FIFO': () => spawnSync('mkfifo', [file]),
      'a 4 GB file (sparse)': () => fs.truncateSync((fs.writeFileSync(file, ''), file), 4 * 1024 ** 3),
    };
    for (const [what, make] of Object.entries(plant)) {
      fs.rmSync(file, { force: true });
      make();
      // Bounded by the test, not by the code under test: a read of /dev/zero never ends by itself.
      const r = spawnSync(process.execPath, ['--max-old-space-size=256', script, 'state', '--json', '--root', root], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, HOME: os.tmpdir() } });
      assert.equal(r.signal, null, `${what}: killed (${r.signal}) after 30 s`);
      assert.equal(r.status, 0, `${what}: ${r.stderr}`);
      assert.equal(r.stdout, first.stdout, what);
    }
  });

  it('still runs when no cache can be written', async () => {
    const { script, cacheDir } = await cliCopy();
    fs.writeFileSync(cacheDir, 'a file where the cache folder would go');
    const r = cli(script, ['state', '--json', '--root', copySample()]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.phase, 'executing');
    assert.equal(fs.readFileSync(cacheDir, 'utf8'), 'a file where the cache folder would go');
  });

  it('reports the CLI’s own errors once, with its exit code', async () => {
    const { script } = await cliCopy();
    const r = cli(script, ['no-such-command']);
    assert.notEqual(r.status, 0);
    assert.equal(r.stderr.split('gsd-review:').length - 1, 1, r.stderr);
  });

  it('loads a user hook written as an ES module, with and without the cache', async () => {
    const { script } = await cliCopy();
    const root = copySample();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
    const hookDir = path.join(home, '.gsd', 'agent', 'extensions', 'mine');
    fs.mkdirSync(hookDir, { recursive: true });
    fs.writeFileSync(path.join(hookDir, 'gsd-hooks.mjs'), `export default function (api) {
  api.registerHook('mine', async (ctx, next) => { ctx.decision = { unitType: 'plan-slice', unitId: 'M002-k7q2xz/S03', prompt: 'from an ES module' }; await next(); });
}\n`);
    const prefs = path.join(root, '.gsd', 'PREFERENCES.md');
    fs.writeFileSync(prefs, '---\nversion: 1\ngsd_hooks:\n  enabled:\n    - name: mine\n      source: mine\n---\n');
    fs.rmSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'), { force: true });
    for (let run = 0; run < 2; run++) {
      const r = cli(script, ['next', '--json', '--root', root], undefined, { HOME: home });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual([r.json.source, r.json.prompt], ['mine', 'from an ES module'], `run ${run + 1}`);
    }
  });
});
