// Preloaded (`node --require`) into code-server's own process, which runs in a process group of its
// own: when the process that started it goes away (the demo or the test runner killed, even with
// SIGKILL), code-server stops with its whole group instead of living on as an orphan.
'use strict';
const startedBy = process.ppid;
setInterval(() => {
  if (process.ppid === startedBy) return;
  try {
    process.kill(-process.pid, 'SIGTERM');
  } catch {
    process.exit(0);
  }
  setTimeout(() => process.exit(0), 5000).unref();
}, 1000).unref();
