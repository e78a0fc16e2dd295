// `gate --done` saves the review's issues as GSD's rework brief where `gsd-mcp-server` is on PATH.
// The server here is a stand-in that speaks MCP over stdio (newline-delimited JSON-RPC 2.0:
// initialize, notifications/initialized, tools/call) and checks the call against what gsd-pi
// 1.16.1's server requires (packages/mcp-server/src/workflow-tools.ts gsd_rework_brief_save:
// milestoneId, sliceId, taskId non-empty, findings ≥ 1 of {findingId, severity blocking|advisory,
// description, requiredFix, verificationCommands[]}, evidence for a blocking finding that is not
// pending; mutating calls need _meta["io.opengsd/idempotency-key"]). It records what it was sent.
// The real server was run against this code outside the repository (docs/successor-gate.md).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { briefFor } from '../../src/core/successor-gate/rework-brief';
import { buildCli, cli } from './helpers/cli';
import { writeSuccessorLayout } from './helpers/successor-project';

const UNIT = 'M001/S02/T01';
const ARTIFACT = '.gsd/phases/01-checkout-flow/S02-T01-CODE-REVIEW.md';

const STAND_IN = `#!/usr/bin/env node
const fs = require('fs');
const log = process.env.BRIEF_LOG;
let buf = '';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
function check(a, meta) {
  const bad = [];
  for (const k of ['milestoneId', 'sliceId', 'taskId']) if (typeof a[k] !== 'string' || !a[k]) bad.push(k + ' missing');
  if (!Array.isArray(a.findings) || a.findings.length === 0) bad.push('findings must have at least one entry');
  for (const f of a.findings || []) {
    for (const k of ['findingId', 'description', 'requiredFix']) if (typeof f[k] !== 'string' || !f[k]) bad.push(k + ' missing');
    if (!['blocking', 'advisory'].includes(f.severity)) bad.push('severity ' + f.severity);
    if (!Array.isArray(f.verificationCommands)) bad.push('verificationCommands must be an array');
    if (f.status && !['pending', 'resolved', 'deferred-with-override'].includes(f.status)) bad.push('status ' + f.status);
    if (f.severity === 'blocking' && f.status && f.status !== 'pending' && !f.evidence) bad.push(f.findingId + ' needs evidence');
  }
  if (!meta || typeof meta['io.opengsd/idempotency-key'] !== 'string') bad.push('no idempotency key');
  return bad;
}
process.stdin.on('data', (c) => {
  buf += c;
  for (let nl = buf.indexOf('\\n'); nl !== -1; nl = buf.indexOf('\\n')) {
    const m = JSON.parse(buf.slice(0, nl)); buf = buf.slice(nl + 1);
    if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stand-in', version: '1' } } });
    if (m.method === 'tools/call') {
      fs.appendFileSync(log, JSON.stringify({ cwd: process.cwd(), root: process.env.GSD_WORKFLOW_PROJECT_ROOT, params: m.params }) + '\\n');
      const bad = m.params.name === 'gsd_rework_brief_save' ? check(m.params.arguments, m.params._meta) : ['unknown tool'];
      send({ id: m.id, result: bad.length ? { isError: true, content: [{ type: 'text', text: bad.join('; ') }] } : { content: [{ type: 'text', text: 'Saved rework brief' }] } });
    }
  }
});
`;

describe('successor gate: the issues as GSD\'s rework brief', function () {
  this.timeout(120_000);
  let script: string;
  before(async () => {
    script = await buildCli();
  });

  function setup(withServer: boolean) {
    const { root } = writeSuccessorLayout({});
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-home-'));
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bin-'));
    const log = path.join(bin, 'calls.jsonl');
    if (withServer) fs.writeFileSync(path.join(bin, 'gsd-mcp-server'), STAND_IN, { mode: 0o755 });
    const env = { HOME: home, GSD_HOME: path.join(home, '.gsd'), PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`, BRIEF_LOG: log };
    assert.equal(cli(script, ['install-hooks', '--host', 'gsd', '--root', root], undefined, env).status, 0);
    fs.writeFileSync(path.join(root, '.gsd', 'hook-state.json'), JSON.stringify({ cycleCounts: { [`gsd-review-loop/execute-task/${UNIT}`]: 2 }, activeHook: { hookName: 'gsd-review-loop', triggerUnitType: 'execute-task', triggerUnitId: UNIT, cycle: 2, pendingRetry: false } }));
    fs.writeFileSync(path.join(root, ARTIFACT), ['---', 'task: T01', 'cycle: 2', 'verdict: pending', '---', '## Issues', '- [ ] **major** `src/pay.ts:3` No idempotency key on capture.', '- [x] **minor** `src/pay.ts:1` Amount was a float.', ''].join('\n'));
    return { root, env, log };
  }

  it('with gsd-mcp-server on PATH: the open issue pending and blocking, the fixed one resolved with evidence', () => {
    const { root, env, log } = setup(true);
    const r = cli(script, ['gate', UNIT, '--done', '--json', '--root', root], undefined, env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.reworkBrief.saved, true, r.json.reworkBrief.detail);
    const [call] = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(call.root, fs.realpathSync(root));
    assert.equal(call.params.name, 'gsd_rework_brief_save');
    const a = call.params.arguments;
    assert.deepEqual([a.milestoneId, a.sliceId, a.taskId], ['M001', 'S02', 'T01']);
    const pending = a.findings.filter((f: { status: string }) => f.status === 'pending');
    const resolved = a.findings.filter((f: { status: string }) => f.status === 'resolved');
    assert.equal(pending.length, 1);
    assert.equal(pending[0].severity, 'blocking', 'GSD puts only pending blocking findings in the next execute-task prompt');
    assert.match(pending[0].description, /src\/pay\.ts:3.*No idempotency key/);
    assert.equal(resolved.length, 1);
    assert.match(resolved[0].evidence, /review cycle 2/);
  });

  it('without it: nothing is spawned, and the output says the re-run relies on the open-issues file', () => {
    const { root, env } = setup(false);
    const r = cli(script, ['gate', UNIT, '--done', '--root', root], undefined, env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /gsd-mcp-server \(npm package @opengsd\/mcp-server\) is not on PATH, so the re-run task learns the open issues only from \.gsd\/gsd-review-loop\/gate\/M001\/S02\/T01\/OPEN-ISSUES\.md/);
    assert.match(r.stdout, /verdict needs-rework/);
  });

  it('a server that never answers does not hold the gate past its timeout, and the verdict stands', () => {
    const { root, env } = setup(false);
    const bin = env.PATH.split(':')[0];
    fs.writeFileSync(path.join(bin, 'gsd-mcp-server'), '#!/bin/sh\nsleep 600\n', { mode: 0o755 });
    const started = Date.now();
    const r = cli(script, ['gate', UNIT, '--done', '--json', '--root', root], undefined, env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.verdict, 'needs-rework');
    assert.equal(r.json.reworkBrief.saved, false);
    assert.match(r.json.reworkBrief.detail, /did not answer within 10 s/);
    assert.ok(Date.now() - started < 60_000);
  });
});

describe('successor gate: the brief keeps a finding\'s id from cycle to cycle', () => {
  const unit = { milestoneId: 'M001', sliceId: 'S02', taskId: 'T01', unitId: 'M001/S02/T01' };
  const a = { text: 'No idempotency key on capture.', severity: 'major', location: 'src/pay.ts:3', resolved: false, line: 7 };
  const b = { text: 'Amount is a float.', severity: 'nit', location: 'src/pay.ts:1', resolved: false, line: 8 };
  it('the same issue has the same id when it moves from open to resolved, and a nit does not block', () => {
    const c1 = briefFor({ projectDir: '/p', unit, cycle: 1, verdict: 'needs-rework', open: [a, b], resolved: [], snapshot: 'c1' })!;
    const c2 = briefFor({ projectDir: '/p', unit, cycle: 2, verdict: 'needs-rework', open: [b], resolved: [{ ...a, resolved: true }], snapshot: 'c2' })!;
    const id = (brief: typeof c1, text: string) => brief.findings.find((f) => f.requiredFix === text)!.findingId;
    assert.equal(id(c1, a.text), id(c2, a.text));
    assert.equal(id(c1, b.text), id(c2, b.text));
    assert.notEqual(id(c1, a.text), id(c1, b.text));
    assert.deepEqual(c1.findings.map((f) => f.severity), ['blocking', 'advisory']);
  });
});
