// Which code-server (and so which VS Code) the integration suite and the demo run on.
// The matrix is the floor (the oldest VS Code `engines.vscode` admits) and the latest code-server on npm.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The one place that says which code-server runs the floor: keyed by the lowest VS Code that
 * `engines.vscode` admits, valued by the oldest code-server on npm whose VS Code (4.X.Y ships
 * 1.X.Y) satisfies it. npm has no 4.109.x, so a floor of 1.109.x runs on 4.110.0 (VS Code 1.110.0,
 * Node 22).
 */
export const FLOOR_CODE_SERVER = {
  '1.100.0': '4.100.3',
  '1.109.0': '4.110.0',
  '1.109.3': '4.110.0',
};

export function enginesVscode() {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).engines.vscode;
}

export function floorCodeServer() {
  const engines = enginesVscode();
  // `^1.100.0` and `>=1.100.0` both start at 1.100.0.
  const lowest = /^\s*(?:\^|>=|~)?\s*(\d+\.\d+\.\d+)\s*$/.exec(engines)?.[1];
  const version = lowest && FLOOR_CODE_SERVER[lowest];
  if (!version) {
    throw new Error(
      `no code-server is set for engines.vscode "${engines}": add it to FLOOR_CODE_SERVER in ` +
        'scripts/vscode-host/versions.mjs (the oldest code-server 4.X.Y whose VS Code 1.X.Y satisfies it; ' +
        '`npm view code-server versions` lists them)',
    );
  }
  return version;
}

/** code-server 4.X.Y is built on VS Code 1.X.Y (true since code-server 4.89). */
export function vscodeVersionOf(codeServerVersion) {
  const m = /^4\.(\d+)\.(\d+)$/.exec(codeServerVersion);
  return m ? `1.${m[1]}.${m[2]}` : undefined;
}

function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** From VS Code 1.134 the web workbench reads the test payload only with this VS Code option. */
export function needsSmokeTestDriver(codeServerVersion) {
  const vscode = vscodeVersionOf(codeServerVersion);
  return vscode !== undefined && compareVersions(vscode, '1.134.0') >= 0;
}

function npmView(args) {
  return new Promise((resolve, reject) => {
    execFile('npm', ['view', ...args, '--loglevel=error'], { timeout: 30_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    );
  });
}

/** The newest code-server already installed in the cache, for when the registry cannot be asked. */
function newestInstalled(cacheDir) {
  if (!fs.existsSync(cacheDir)) return undefined;
  return fs
    .readdirSync(cacheDir)
    .map((n) => /^code-server-(\d+\.\d+\.\d+)$/.exec(n)?.[1])
    .filter((v) => v && fs.existsSync(path.join(cacheDir, `code-server-${v}`, '.ready')))
    .sort(compareVersions)
    .pop();
}

export async function latestCodeServer(cacheDir) {
  try {
    const version = await npmView(['code-server', 'version']);
    if (/^\d+\.\d+\.\d+$/.test(version)) return version;
    throw new Error(`unexpected answer "${version}"`);
  } catch (error) {
    const installed = newestInstalled(cacheDir);
    if (!installed) throw new Error(`cannot ask npm for the latest code-server (${error.message}) and none is installed`, { cause: error });
    process.stderr.write(`[code-server] npm did not say which code-server is latest; using the newest installed, ${installed}\n`);
    return installed;
  }
}

/**
 * `GSD_CODE_SERVER_VERSION`: a version (`4.139.1`), `floor`, `latest`, or several separated by commas.
 * Unset: the floor and the latest. Returns distinct versions with the role each plays.
 */
export async function resolveMatrix(spec, cacheDir) {
  const wanted = (spec?.trim() ? spec : 'floor,latest').split(',').map((s) => s.trim()).filter(Boolean);
  const out = [];
  for (const w of wanted) {
    let version;
    let role;
    if (w === 'floor') [version, role] = [floorCodeServer(), `floor: engines.vscode ${enginesVscode()}`];
    else if (w === 'latest') [version, role] = [await latestCodeServer(cacheDir), 'latest on npm'];
    else if (/^\d+\.\d+\.\d+$/.test(w)) [version, role] = [w, 'chosen'];
    else throw new Error(`GSD_CODE_SERVER_VERSION: "${w}" is not a code-server version (like 4.139.1), floor or latest`);
    const same = out.find((o) => o.version === version);
    if (same) same.role += `, ${role}`;
    else out.push({ version, role, vscode: vscodeVersionOf(version) ?? '?' });
  }
  return out;
}
