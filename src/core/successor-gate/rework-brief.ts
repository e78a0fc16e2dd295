// The review's issues as GSD's own rework brief, where GSD's MCP server is on this machine
// (`gsd-mcp-server`, package @opengsd/mcp-server; it is not part of `gsd` itself). GSD keeps briefs
// in its database and writes them only through that server's `gsd_rework_brief_save`; pending
// blocking findings go into the task's next execute-task prompt (gsd-pi 1.16.1 auto-prompts.ts
// renderBlockingReworkFindingsBlock). The tool's input (mcp-server workflow-tools.ts): projectDir,
// briefId, milestoneId, sliceId, taskId, findings [{findingId, severity blocking|advisory,
// description, requiredFix, verificationCommands, status pending|resolved|…, evidence}]; a save
// replaces the brief's findings; a finding that is blocking and not pending needs evidence; a
// mutating call needs `_meta["io.opengsd/idempotency-key"]`. The server speaks MCP over stdio
// (newline-delimited JSON-RPC), finds the project from GSD_WORKFLOW_PROJECT_ROOT or its cwd.
//
// A few lines of JSON-RPC, bounded in time: our gate never waits on GSD's server for long, and a
// brief that could not be saved is said, not an error (the open-issues file carries the issues).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { ReviewIssue } from '../model/types';
import type { GateVerdict } from './gate-verdict';

export const MCP_SERVER_BIN = 'gsd-mcp-server';
/** Our briefs' ids: `gsd-review-loop-M001-S01-T01`, one per task, replaced at each cycle. */
export const GATE_BRIEF_PREFIX = 'gsd-review-loop-';
const TIMEOUT_MS = 10_000;

export interface BriefFinding {
  findingId: string;
  severity: 'blocking' | 'advisory';
  description: string;
  requiredFix: string;
  verificationCommands: string[];
  status: 'pending' | 'resolved';
  evidence?: string;
}

export interface BriefInput {
  projectDir: string;
  briefId: string;
  milestoneId: string;
  sliceId: string;
  taskId: string;
  findings: BriefFinding[];
}

export interface BriefResult {
  saved: boolean;
  /** What happened, in one line. */
  detail: string;
}

const describeIssue = (i: ReviewIssue) => [i.severity && `[${i.severity}]`, i.location && `${i.location}:`, i.text].filter(Boolean).join(' ');

/** An issue's id for as long as it reads the same: its place and words, so a finding keeps its id from cycle to cycle. */
function findingId(i: ReviewIssue, taken: Set<string>): string {
  const base = `F-${createHash('sha256').update(`${i.location ?? ''}\n${i.text.trim()}`).digest('hex').slice(0, 8)}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

// The review's lesser words: GSD needs them done no more than advice (and does not put advice in the task's prompt).
const ADVISORY_WORDS = new Set(['minor', 'nit', 'info', 'note', 'suggestion', 'trivial', 'low']);

/**
 * The brief for this cycle: the open issues pending (blocking while rework is asked, so GSD puts
 * them in the re-run's prompt, but for minor ones and nits; advisory at the cap, when GSD goes on),
 * the resolved ones resolved with the review as evidence. Null when there is nothing to say.
 */
export function briefFor(o: { projectDir: string; unit: { milestoneId: string; sliceId: string; taskId: string; unitId: string }; cycle: number; verdict: GateVerdict; open: ReviewIssue[]; resolved: ReviewIssue[]; snapshot: string }): BriefInput | null {
  if (o.open.length + o.resolved.length === 0) return null;
  const taken = new Set<string>();
  const severity = (i: ReviewIssue): BriefFinding['severity'] => (o.verdict === 'needs-rework' && !ADVISORY_WORDS.has((i.severity ?? '').toLowerCase()) ? 'blocking' : 'advisory');
  const findings: BriefFinding[] = [
    ...o.open.map((i) => ({ findingId: findingId(i, taken), severity: severity(i), description: describeIssue(i), requiredFix: i.text, verificationCommands: [], status: 'pending' as const })),
    ...o.resolved.map((i) => ({ findingId: findingId(i, taken), severity: severity(i), description: describeIssue(i), requiredFix: i.text, verificationCommands: [], status: 'resolved' as const, evidence: `Ticked as fixed in GSD Review Loop's review cycle ${o.cycle} (${o.snapshot})` })),
  ];
  return { projectDir: o.projectDir, briefId: `${GATE_BRIEF_PREFIX}${o.unit.unitId.replace(/\//g, '-')}`, milestoneId: o.unit.milestoneId, sliceId: o.unit.sliceId, taskId: o.unit.taskId, findings };
}

interface RpcMessage {
  id?: number;
  result?: { isError?: boolean; content?: Array<{ type: string; text?: string }> };
  error?: { message?: string };
}

/** Saves the brief through the server at `bin`; never throws, never waits past the timeout. */
export function saveReworkBrief(bin: string, brief: BriefInput, timeoutMs = TIMEOUT_MS): Promise<BriefResult> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: BriefResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // Its whole process group, at once: it answered or had its time, and one that ignores SIGTERM
      // (or a shell script's children) must not outlive us.
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      child.stdin.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(r);
    };
    const child = spawn(bin, [], { cwd: brief.projectDir, env: { ...process.env, GSD_WORKFLOW_PROJECT_ROOT: brief.projectDir, GSD_MCP_CLIENT_MANAGED: '1' }, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const timer = setTimeout(() => finish({ saved: false, detail: `${MCP_SERVER_BIN} did not answer within ${timeoutMs / 1000} s` }), timeoutMs);
    let stderr = '';
    let out = '';
    child.on('error', (e) => finish({ saved: false, detail: `${MCP_SERVER_BIN} could not be started: ${e.message}` }));
    child.on('exit', (code) => finish({ saved: false, detail: `${MCP_SERVER_BIN} ended (exit ${code}) before saving: ${stderr.trim().split('\n').pop() ?? ''}` }));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4096)));
    const send = (m: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
    const key = createHash('sha256').update(JSON.stringify(brief)).digest('hex').slice(0, 32);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.length > 4 * 1024 * 1024) return finish({ saved: false, detail: `${MCP_SERVER_BIN} said too much` });
      for (let nl = out.indexOf('\n'); nl !== -1; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        let msg: RpcMessage;
        try {
          msg = JSON.parse(line) as RpcMessage;
        } catch {
          continue;
        }
        if (msg.id === 1) {
          if (msg.error) return finish({ saved: false, detail: `${MCP_SERVER_BIN} refused to start a session: ${msg.error.message ?? ''}` });
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/call', params: { name: 'gsd_rework_brief_save', arguments: brief, _meta: { 'io.opengsd/idempotency-key': `gsd-review-loop:${brief.briefId}:${key}` } } });
        } else if (msg.id === 2) {
          const text = (msg.result?.content ?? []).map((p) => p.text ?? '').join(' ').trim();
          if (msg.error || msg.result?.isError) return finish({ saved: false, detail: `gsd_rework_brief_save refused: ${(msg.error?.message ?? text).split('\n')[0]}` });
          return finish({ saved: true, detail: `saved as GSD's rework brief ${brief.briefId} (${brief.findings.filter((f) => f.status === 'pending').length} pending)` });
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gsd-review-loop', version: '1' } } });
  });
}
