// A task summary whose frontmatter is broken on a line the state does not need (GSD's own YAML
// reader refuses the whole file): the panel's reading and `state --full` say so, once, on that file.
// The CLI's lazy read picks only the keys it needs from their lines and stays as fast as it was.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openProject } from '../../src/core/project/open-project';

const SAMPLE = path.join(__dirname, '..', '..', 'sample-project');
const SUMMARY = '.gsd/milestones/M002-k7q2xz/slices/S02/tasks/T02-SUMMARY.md';

describe('a task summary with broken YAML on a line the state does not read', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-summary-yaml-'));
  before(() => {
    fs.cpSync(SAMPLE, root, { recursive: true });
    const file = path.join(root, SUMMARY);
    // key_files is GSD's; the state reads id, parent, completed_at, verification_result … only.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('  - src/rules-file.ts\n', '  - [src/rules-file.ts\n'));
  });

  for (const reading of ['incremental', 'full'] as const) {
    it(`is an error on that file in the ${reading} reading, with the line`, () => {
      const state = openProject(root, { reading }).state();
      const found = state.diagnostics.filter((d) => d.file.endsWith('T02-SUMMARY.md'));
      assert.equal(found.length, 1, JSON.stringify(state.diagnostics));
      assert.equal(found[0].severity, 'error');
      assert.equal(found[0].line, 8);
      assert.match(found[0].message, /^frontmatter is not valid YAML: /);
      // The keys the state uses are still read from their lines.
      assert.equal(state.milestones[1].slices[1].tasks[1].verificationResult, 'mixed');
    });
  }
});
