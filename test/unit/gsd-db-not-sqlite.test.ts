// A gsd.db that is not an SQLite database (random bytes): the project is read from its markdown,
// and that is said, in the diagnostics (Problems) and as the source's fallback (the panel's message).
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openProject } from '../../src/core/project/open-project';

const SAMPLE = path.join(__dirname, '..', '..', 'sample-project');

describe('a gsd.db of random bytes', () => {
  for (const reading of ['lazy', 'incremental'] as const) {
    it(`is said, not ignored (${reading} reading): the markdown is read instead`, () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-random-db-'));
      fs.cpSync(SAMPLE, root, { recursive: true });
      fs.writeFileSync(path.join(root, '.gsd', 'gsd.db'), crypto.randomBytes(8192));
      const state = openProject(root, { reading }).state();
      assert.equal(state.source.kind, 'markdown');
      assert.equal(state.milestones.length, 3, 'the markdown is read');
      const said = state.diagnostics.filter((d) => d.file.endsWith('gsd.db'));
      assert.deepEqual(said.map((d) => [d.severity, d.message]), [['warning', 'gsd.db is not an SQLite database (wrong or missing header); the project is read as markdown']]);
      assert.equal(state.source.fallback, said[0].message);
    });
  }
});
