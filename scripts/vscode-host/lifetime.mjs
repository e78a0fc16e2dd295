// Ties a long-running script (the demo, the integration runner) to whoever started it: Ctrl+C,
// SIGTERM, SIGHUP, or its npm parent dying all run the clean-up once and exit.
import fs from 'node:fs';

/** The parent of `pid`, from /proc (Linux); undefined elsewhere or when `pid` is gone. */
function parentOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * `npm run x` starts `sh -c "…"` which starts node: when npm is killed, sh may outlive it, so the
 * grandparent is watched too.
 */
export function onExitRequest(cleanup) {
  let stopping = false;
  const stop = async (why, code) => {
    if (stopping) return;
    stopping = true;
    try {
      await cleanup(why);
    } finally {
      process.exit(code);
    }
  };
  process.on('SIGINT', () => stop('interrupted', 130));
  process.on('SIGTERM', () => stop('terminated', 143));
  process.on('SIGHUP', () => stop('hung up', 129));
  const parent = process.ppid;
  const grandparent = parentOf(parent);
  setInterval(() => {
    if (process.ppid !== parent) void stop('the process that started it is gone', 1);
    else if (grandparent !== undefined && grandparent > 1 && parentOf(parent) !== grandparent) void stop('npm, which started it, is gone', 1);
  }, 1000).unref();
  return stop;
}
