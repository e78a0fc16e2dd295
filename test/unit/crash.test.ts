// A writer killed with SIGKILL at random points, 200 times: the file is always the old or the new
// content, never partial.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { setExtensionBlock } from '../../src/core/parse/frontmatter-block';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { HookStateTransaction } from '../../src/core/hooks/engine/hook-state';
import { ProjectFiles } from '../../src/core/state/project-files';
import { locateProject } from '../../src/core/state/locate-project';
import { runAndKill } from './helpers/crash-writer-run';
import { copySample } from './helpers/gsd-tree';
import { killDelays } from './helpers/crash-seed';

const ROUNDS = Number(process.env.GSD_CRASH_ROUNDS ?? 200);
const PAYLOAD = 100_000;


describe('crash safety of hook state writes', function () {
  this.timeout(300_000);
  let script: string;

  before(async () => {
    script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-crash-')), 'crash-writer.js');
    await esbuild.build({ entryPoints: [path.join(__dirname, 'helpers', 'crash-writer.ts')], bundle: true, platform: 'node', outfile: script, logLevel: 'error' });
  });

  it(`leaves the old or the new file after ${ROUNDS} SIGKILLs at random points`, async () => {
    const root = copySample();
    const gsdDir = locateProject(root)!.gsdDir;
    const unit = 'M002-k7q2xz/S02/T03';
    // The task's sidecar, with another hook's block already in it: every write is an edit of it.
    const file = path.join(gsdDir, 'milestones', 'M002-k7q2xz', 'slices', 'S02', 'tasks', 'T03-HOOKS.md');
    fs.writeFileSync(file, '---\nextensions:\n  my-policy:\n    checked: true\n---\n# Hook state of task M002-k7q2xz/S02/T03\n');
    const original = fs.readFileSync(file, 'utf8');
    const valid = new Set([original, 0, 1].map((r) => (typeof r === 'string' ? r : setExtensionBlock(original, 'crash', { round: r, payload: (r ? 'a' : 'b').repeat(PAYLOAD) }))));
    const seen = new Map<string, number>();
    const delays = killDelays('crash', 120);
    for (let i = 0; i < ROUNDS; i++) {
      await runAndKill(script, [gsdDir, unit, String(PAYLOAD)], delays.next());
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(valid.has(text), `seed ${delays.seed}, round ${i}: the file is neither the old nor the new content (${text.length} chars)`);
      const kind = text === original ? 'original' : /round: 1/.test(text) ? 'round 1' : 'round 0';
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
    }
    // Both values were caught at some kill, so kills did land mid-loop.
    assert.ok((seen.get('round 0') ?? 0) > 0 && (seen.get('round 1') ?? 0) > 0, JSON.stringify([...seen]));
    // Killed writers leave temp files (never the target); the next write tidies them away.
    const tx = new HookStateTransaction(new ProjectFiles(new NodeGsdStore()), gsdDir, new NodeGsdStore());
    tx.handleFor('crash').set(unit, undefined);
    tx.commit();
    assert.equal(fs.readFileSync(file, 'utf8'), original);
    assert.deepEqual(fs.readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp')), []);
  });
});
