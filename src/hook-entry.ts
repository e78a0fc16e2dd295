// `dist/hook.js`, what the hook launcher runs for every agent event: reads the payload, and when the
// answer-cache (core/agent-hooks/answer-cache.ts) holds the answer for it with every file it rested
// on unchanged, prints that answer at once; otherwise it starts the full CLI (`gsd-review hook`)
// with the payload it read. Kept small: a host waits for this process on every event.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectHost, githubEntryInstalled, isAgentHost, isDuplicateRun } from './core/agent-hooks/agent-host';
import { answerKey, HOOK_PAYLOAD, hookCacheContext, lookupAnswer } from './core/agent-hooks/answer-cache';
import { appendHookLogAsLeft } from './core/agent-hooks/hook-log';
import { eventOf } from './core/agent-hooks/hook-payload';
import { gsdDirFrom, MAX_PAYLOAD_BYTES, UNREAD_PAYLOAD_NOTE, unreadPayloadAnswer } from './core/agent-hooks/fail-closed';
import { firstHookProject } from './core/agent-hooks/hook-project';
import { successorStandsAside } from './core/agent-hooks/successor-stand-aside';
import { findGsdFolder } from './core/state/find-gsd-folder';
import { writeStdout } from './cli/write-stdout';
import { userHome } from './core/files/user-home';

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0 && i + 1 < argv.length) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

function findGsd(start: string): { root: string; gsdDir: string } | null {
  const found = findGsdFolder(start);
  const gsdDir = found ? gsdDirFrom(found.root) : null;
  return found && gsdDir ? { root: found.root, gsdDir } : null;
}

/** True when the event was answered here (from the cache, or nothing on a successor project). Never throws. */
function answerFromCache(text: string, argv: string[]): boolean {
  try {
    if (text.length > MAX_PAYLOAD_BYTES) return false;
    const started = Date.now();
    const raw = JSON.parse(text) as Record<string, unknown>;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return false;
    const event = eventOf(raw, option(argv, '--event') ?? null);
    if (!event) return false;
    const rootArg = option(argv, '--root');
    const project = firstHookProject({ root: rootArg ?? null, env: process.env, cwd: process.cwd(), payloadCwd: typeof raw.cwd === 'string' ? raw.cwd : null }, findGsd);
    if (!project) return false;
    // Nothing to answer and nothing to write there: said in one line, without starting the CLI.
    const aside = successorStandsAside(project.gsdDir);
    if (aside) {
      process.stderr.write(`gsd-review hook: ${event}: ${aside}\n`);
      return true;
    }
    const origin = option(argv, '--host');
    const host = detectHost(raw, process.env, isAgentHost(origin) ? origin : null);
    // The same test as the full bridge; it then stands aside without an answer.
    if (isDuplicateRun(host, event, () => githubEntryInstalled(project.root, userHome()))) return false;
    const context = hookCacheContext(rootArg, argv.includes('--untrusted'));
    if (context === null) return false;
    const key = answerKey(event, raw, `${context}\u0000${host.dialect}\u0000${host.origin ?? ''}`);
    const hit = key ? lookupAnswer(project.gsdDir, key) : null;
    if (!hit) return false;
    const sessionId = typeof raw.session_id === 'string' ? raw.session_id : typeof raw.sessionId === 'string' ? raw.sessionId : 'unknown';
    // Logged first: a log to create, repair or rotate is the full bridge's work (it answers alike).
    if (!appendHookLogAsLeft(project.gsdDir, { at: new Date().toISOString(), event, sessionId, answer: hit.answer, ms: Date.now() - started, notes: ['answered from the cache: nothing it rests on changed'] })) return false;
    // EPIPE: the reader is gone, and nobody is left to answer.
    if (hit.output) writeStdout(JSON.stringify(hit.output) + '\n');
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether stdin is a terminal. Only a character device can be one, and node:tty (which loads net
 * and stream, about 3 ms of every hook process) is loaded only then.
 */
function isStdinTerminal(): boolean {
  try {
    if (!fs.fstatSync(0).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:tty') as typeof import('node:tty')).isatty(0);
}

/**
 * The payload, read up to the limit and no further: a host (or whatever feeds this process) that
 * sends gigabytes must not make us hold them. Over the limit: null.
 */
function readPayload(): string | null {
  // A terminal is no host: nobody will send a payload, and reading would wait for Ctrl-D (the full CLI answers at once in the same case; so does this).
  if (isStdinTerminal()) return null;
  // One buffer, grown when full: a payload is one read of a few KB, decoded without copies.
  let buf = Buffer.allocUnsafe(64 * 1024);
  let total = 0;
  for (;;) {
    if (total === buf.length) {
      if (total > MAX_PAYLOAD_BYTES) return null;
      const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_PAYLOAD_BYTES + 1));
      buf.copy(grown, 0, 0, total);
      buf = grown;
    }
    let n: number;
    try {
      n = fs.readSync(0, buf, total, buf.length - total, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      if ((error as NodeJS.ErrnoException).code === 'EOF') break;
      return '';
    }
    if (n === 0) break;
    total += n;
  }
  return total > MAX_PAYLOAD_BYTES ? null : buf.toString('utf8', 0, total);
}

const text = readPayload();
const argv = process.argv.slice(2);
if (text === null) {
  // What the full CLI says of such a payload (the same rule), without starting it.
  process.stderr.write(UNREAD_PAYLOAD_NOTE);
  const origin = option(argv, '--host');
  const output = unreadPayloadAnswer(option(argv, '--event'), option(argv, '--root') ?? null, isAgentHost(origin) ? origin : null, process.env);
  if (output) writeStdout(JSON.stringify(output) + '\n');
} else if (!answerFromCache(text, argv)) {
  (globalThis as Record<symbol, unknown>)[HOOK_PAYLOAD] = text;
  const cli = path.join(__dirname, 'cli.js');
  process.argv = [process.argv[0], cli, 'hook', ...argv];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- runs the CLI bundle in this process, found at run time
  require(cli);
}
