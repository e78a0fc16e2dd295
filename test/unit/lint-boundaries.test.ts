// The design's import boundaries, as eslint.config.mjs enforces them (docs/architecture.md, "Layers", and the
// hook authors' front door): each folder of src/core imports only the levels below its own, src/core
// and the command line never import vscode or the VS Code adapter, and a built-in hook imports only
// the front door, its own folder and packages. Each case is linted as if it were the named file, with
// the project's own config. The folder order in the docs is the one the lint reads.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');

type Linter = { lintText(code: string, options: { filePath: string }): Promise<Array<{ messages: Array<{ ruleId: string | null; message: string }> }>> };
let eslint: Linter;

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

async function outOfOrder(file: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${from}';\nexport const y = x;\n`, { filePath: path.join(REPO, file) });
  return result.messages.filter((m) => m.ruleId === 'layers/folder-order').map((m) => m.message);
}

describe('lint boundaries (eslint.config.mjs)', function () {
  this.timeout(60_000);

  before(async () => {
    const { ESLint } = (await import('eslint')) as unknown as { ESLint: new (o: { cwd: string }) => Linter };
    eslint = new ESLint({ cwd: REPO });
  });

  it('refuses vscode and the VS Code adapter in src/core, and allows them in src/vscode', async () => {
    assert.deepEqual(await restricted('src/core/state/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"), [
      "'vscode' import is restricted from being used. src/core is shared with the CLI and the hook bridge: it never imports vscode.",
    ]);
    assert.equal((await restricted('src/core/state/x.ts', "import { a } from '../../vscode/status-bar';\nexport const v = a;\n")).length, 1);
    assert.deepEqual(await restricted('src/vscode/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"), []);
  });

  it('lets a built-in hook import the front door, its own folder and packages, and nothing else of ours', async () => {
    const file = 'src/core/hooks/builtin/review-loop/x.ts';
    const ok = "import * as path from 'node:path';\nimport * as v from 'valibot';\nimport { activeUnits } from '../../api';\nimport { REVIEW_LOOP } from './review-loop-state';\nexport const x = [path, v, activeUnits, REVIEW_LOOP];\n";
    assert.deepEqual(await restricted(file, ok), []);
    for (const from of ['../../engine/middleware', '../../../model/find-unit', '../pending-actions/pending-actions', '../../api/../engine/hook-state']) {
      const messages = await restricted(file, `import { x } from '${from}';\nexport const y = x;\n`);
      assert.equal(messages.length, 1, from);
      assert.match(messages[0], /A built-in hook imports only the front door \(\.\.\/\.\.\/api\), its own folder and packages\./);
    }
    assert.equal((await restricted(file, "import * as vscode from 'vscode';\nexport const v = vscode;\n")).length, 1);
  });

  it('lets a core folder import the levels below it, and refuses one above, a neighbour and an unplaced folder', async () => {
    for (const [file, from] of [
      ['src/core/state/x.ts', '../parse/roadmap'],
      ['src/core/dispatch/x.ts', '../hooks/engine/middleware'],
      ['src/core/hooks/loading/x.ts', '../lifecycle/hooks-provider'],
      ['src/core/agent-hooks/x.ts', '../project/open-project'],
      ['src/core/state/x.ts', './project-files'],
    ]) assert.deepEqual(await outOfOrder(file, from), [], `${file} <- ${from}`);
    assert.deepEqual(await outOfOrder('src/core/state/x.ts', '../dispatch/dispatch-record'), [
      'src/core/state may not import src/core/dispatch (above it in the folder order, docs/architecture.md "Layers"): move what both need down.',
    ]);
    assert.match((await outOfOrder('src/core/hooks/engine/x.ts', '../lifecycle/hooks-provider'))[0], /hooks\/engine may not import src\/core\/hooks\/lifecycle \(above it/);
    assert.match((await outOfOrder('src/core/state/x.ts', '../gsd2-database/derive'))[0], /beside it, on the same level/);
    assert.match((await outOfOrder('src/core/model/x.ts', '../files/confine'))[0], /above it/);
    assert.match((await outOfOrder('src/core/new-idea/x.ts', '../model/types'))[0], /src\/core\/new-idea has no place in the folder order/);
    assert.match((await outOfOrder('src/core/model/x.ts', '../../cli/plain-args'))[0], /never imports src\/cli\/plain-args/);
  });

  it('keeps vscode and the VS Code face out of the command line and the hook entry', async () => {
    for (const file of ['src/cli/x.ts', 'src/cli.ts', 'src/cli-gate.ts', 'src/cli-launcher.ts', 'src/hook-entry.ts', 'src/builtin-hooks.ts']) {
      assert.equal((await restricted(file, "import * as vscode from 'vscode';\nexport const v = vscode;\n")).length, 1, file);
      const up = file.startsWith('src/cli/') ? '../vscode/lifecycle/owner' : './vscode/lifecycle/owner';
      assert.equal((await outOfOrder(file, up)).length, 1, file);
    }
    assert.equal((await outOfOrder('src/vscode/panel/x.ts', '../../cli/plain-args')).length, 1);
    assert.deepEqual(await outOfOrder('src/vscode/panel/x.ts', '../../core/model/types'), []);
  });

  it('places every folder of src/core, in the order docs/architecture.md shows', async () => {
    const { CORE_LEVELS } = await import('../../scripts/lint/layers.mjs');
    const core = path.join(REPO, 'src', 'core');
    const folders = (fs.readdirSync(core, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((e) => e.isDirectory())
      .map((e) => path.relative(core, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    // hooks/builtin holds only the built-in hooks' own folders.
    assert.deepEqual(folders.filter((f) => f !== 'hooks/builtin').sort(), CORE_LEVELS.flat().sort());
    const doc = fs.readFileSync(path.join(REPO, 'docs', 'architecture.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), [...m[2].matchAll(/`([^`]+)\/`/g)].map((f) => f[1])] as const);
    assert.deepEqual(
      rows.sort((a, b) => a[0] - b[0]).map((r) => r[1]),
      CORE_LEVELS,
    );
  });
});
