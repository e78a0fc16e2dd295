// Issue 24, suspected case 1 (confirmed): VS Code's Next Unit sent the prompt to its target and only
// then committed the hook state and recorded the dispatch; when that commit failed, a review ran that
// nothing recorded, so no guard kept it to its review file and the loop never counted it. The command
// now goes through recordThenSend: the record first, and a failed record sends nothing.
// (A deliberate break, sending before `record()`, fails the first two tests.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recordThenSend } from '../../src/core/dispatch/record-then-send';
import type { DispatchDecision } from '../../src/core/hooks/engine/middleware-types';
import { openProject } from '../../src/core/project/open-project';
import { roadmap, slicePlan, writeTree } from './helpers/gsd-tree';

const RECORD = '.gsd/gsd-review-loop/dispatch.json';

function project(): string {
  return writeTree({
    '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice' }]),
    '.gsd/milestones/M001/slices/S01/tasks/T01-PLAN.md': '# T01: Render invoice\n',
  });
}

const unit: DispatchDecision = { unitType: 'execute-task', unitId: 'M001/S01/T01', prompt: 'Render the invoice.', source: 'user' };

describe('Next Unit records the dispatch before it sends the prompt', () => {
  it('a record that fails sends nothing', async () => {
    const root = project();
    // Our runtime folder is a file: every write of ours is refused, the dispatch record with it.
    fs.writeFileSync(path.join(root, '.gsd', 'gsd-review-loop'), 'not a folder\n');
    const engine = openProject(root);
    const sent: DispatchDecision[] = [];
    await assert.rejects(
      recordThenSend(
        () => engine.dispatchUnit(unit),
        async (d) => sent.push(d),
      ),
      /not a folder/,
    );
    assert.deepEqual(sent, [], 'the prompt went out although the dispatch was not recorded');
  });

  it('the prompt goes out only once the record holds it, and it is the recorded unit', async () => {
    const root = project();
    const engine = openProject(root);
    const seen: Array<{ unitId: string; recorded: string | null }> = [];
    const { sent } = await recordThenSend(
      () => engine.dispatchUnit(unit),
      async (d) => {
        const record = fs.existsSync(path.join(root, RECORD)) ? (JSON.parse(fs.readFileSync(path.join(root, RECORD), 'utf8')) as { current: { unitId: string } }) : null;
        seen.push({ unitId: d.unitId, recorded: record?.current.unitId ?? null });
        return 'sent';
      },
    );
    assert.equal(sent, 'sent');
    assert.deepEqual(seen, [{ unitId: 'M001/S01/T01', recorded: 'M001/S01/T01' }]);
  });

});
