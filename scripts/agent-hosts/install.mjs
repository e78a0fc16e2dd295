// Installs the real agent hosts the end-to-end suite drives, at exact versions, once into the shared
// test cache ($GSD_VSCODE_CACHE/agent-hosts/<package>@<version>). Both packages are thin wrappers
// whose platform optional dependency (`@anthropic-ai/claude-code-linux-x64`, `@github/copilot-linux-x64`)
// ships the host as one native executable: the suite runs that file directly, so no Node of theirs is
// needed (Claude Code's `engines.node >= 22` only makes npm on Node 20 warn). `--ignore-scripts`:
// Claude Code's postinstall only copies that executable over a placeholder script.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installOnce, runQuietly } from '../vscode-host/cache-install.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The versions the suite runs (docs/testing-with-real-hosts.md names them). */
export const HOSTS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332', native: (p, a) => [`@anthropic-ai/claude-code-${p}-${a}`, 'claude'] },
  copilot: { pkg: '@github/copilot', version: '1.0.102', native: (p, a) => [`@github/copilot-${p}-${a}`, 'copilot'] },
};

export function cacheDir() {
  return path.resolve(process.env.GSD_VSCODE_CACHE ?? path.join(repoRoot, '.vscode-test'));
}

/** The host's native executable for this platform, inside an install folder. */
function executableOf(host, dir) {
  const [pkg, file] = host.native(process.platform, process.arch);
  return path.join(dir, 'node_modules', pkg, file);
}

/** Installs (once) the host; returns `{ executable, version }`. */
export async function installHost(name) {
  const host = HOSTS[name];
  if (!host) throw new Error(`unknown agent host ${name}`);
  const cache = cacheDir();
  const finalDir = path.join(cache, 'agent-hosts', `${host.pkg.replace('/', '+')}@${host.version}`);
  await installOnce('agent-hosts', finalDir, `${host.pkg}@${host.version}`, async (tmp) => {
    fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'gsd-agent-host', private: true }));
    await runQuietly('agent-hosts', `downloading ${host.pkg}@${host.version}`, 'npm',
      ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--engine-strict=false', '--loglevel=error',
        `${host.pkg}@${host.version}`], { cwd: tmp });
    const executable = executableOf(host, tmp);
    if (!fs.existsSync(executable)) throw new Error(`${host.pkg}@${host.version} brought no ${path.relative(tmp, executable)} for ${process.platform}-${process.arch}`);
  });
  return { executable: executableOf(host, finalDir), version: host.version };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(HOSTS)) {
    const h = await installHost(name);
    console.log(`${name} ${h.version}: ${h.executable}`);
  }
}
