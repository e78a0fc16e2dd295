// The design's import boundaries, as eslint.config.mjs enforces them (docs/architecture.md, "Layers", and the
// hook authors' front door): src/core never imports vscode or the VS Code adapter, and a built-in
// hook imports only the front door, its own folder and packages. Each case is linted as if it were
// the named file, with the project's own config.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');

type Linter = { lintText(code: string, options: { filePath: string }): Promise<Array<{ messages: Array<{ ruleId: string | null; message: string }> }>> };
let eslint: Linter;

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
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
});
