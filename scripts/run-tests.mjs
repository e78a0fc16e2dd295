// `npm test`: type-check, unit tests (mocha), then the integration suite inside a real VS Code.
// Streams each step's output and ends with one plain line that counts every test:
// "tests: N passed, N failed".
import { spawn } from 'node:child_process';

const steps = [
  ['type-check', 'npx', ['tsc', '-p', '.', '--noEmit']],
  ['unit tests', 'npx', ['mocha']],
  ['build', 'node', ['esbuild.mjs']],
  ['integration tests (VS Code extension host)', 'node', ['scripts/vscode-host/run-integration.mjs']],
];

function run(label, cmd, args) {
  return new Promise((resolve) => {
    console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

let passed = 0;
let failed = 0;
let pending = 0;
let exitCode = 0;
for (const [label, cmd, args] of steps) {
  const { code, out } = await run(label, cmd, args);
  for (const m of out.matchAll(/^\s*(\d+) passing/gm)) passed += Number(m[1]);
  for (const m of out.matchAll(/^\s*(\d+) failing/gm)) failed += Number(m[1]);
  for (const m of out.matchAll(/^\s*(\d+) pending/gm)) pending += Number(m[1]);
  if (code !== 0) {
    console.error(`\n✖ ${label} failed (exit ${code})`);
    exitCode = code;
    if (failed === 0) failed = 1;
    break;
  }
}
console.log(`\ntests: ${passed} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
process.exit(exitCode);
