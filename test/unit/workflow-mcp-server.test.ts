// Install Agent Hooks on a GSD-2 database project also gives VS Code's agent GSD's `gsd-workflow`
// MCP server: read from `.mcp.json` (never written), merged into `.vscode/mcp.json` byte-preservingly.
// The `.mcp.json` fixtures have the shape GSD-2 writes (gsd-build/gsd-2 at 76568edc,
// src/resources/extensions/gsd/mcp-project-config.ts: `{"mcpServers": {"gsd-workflow": {command,
// args, cwd, env}}}`, JSON.stringify with 2 spaces; env from workflow-mcp.ts buildWorkflowLaunchEnv);
// the expected `.vscode/mcp.json` entry follows VS Code's schema (mcpConfiguration.ts,
// `mcpStdioServerSchema`: type "stdio", command, args, cwd, env under top-level `servers`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser/lib/esm/main.js';
import { runInstallHooksCommand } from '../../src/cli/install-hooks-command';
import { applyFileChanges, readOrNull, revertFileChanges } from '../../src/core/files/file-changes';
import { planInstall, planUninstall, type Plan } from '../../src/core/agent-hooks/hook-install';
import type { ProjectKind } from '../../src/core/state/project-kind';
import { emptySqliteDatabase } from './helpers/empty-sqlite';
import { roadmap, writeTree } from './helpers/gsd-tree';

const home = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));

/** `.mcp.json` as `/gsd mcp init` writes it, beside a server of the user's. */
function gsdMcpJson(root: string, cli = '/opt/gsd/packages/mcp-server/dist/cli.js'): string {
  const config = {
    mcpServers: {
      'user-docs': { command: 'npx', args: ['-y', 'docs-server'] },
      'gsd-workflow': {
        command: '/usr/local/bin/node',
        args: [cli],
        cwd: root,
        env: { GSD_CLI_PATH: '/opt/gsd/dist/loader.js', GSD_BIN_PATH: '/opt/gsd/dist/loader.js', GSD_PERSIST_WRITE_GATE_STATE: '1', GSD_WORKFLOW_PROJECT_ROOT: root },
      },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** What VS Code's `.vscode/mcp.json` should hold for that entry. */
function expectedServer(root: string, cli = '/opt/gsd/packages/mcp-server/dist/cli.js') {
  return {
    type: 'stdio',
    command: '/usr/local/bin/node',
    args: [cli],
    cwd: root,
    env: { GSD_CLI_PATH: '/opt/gsd/dist/loader.js', GSD_BIN_PATH: '/opt/gsd/dist/loader.js', GSD_PERSIST_WRITE_GATE_STATE: '1', GSD_WORKFLOW_PROJECT_ROOT: root },
  };
}

const USER_MCP = `// Servers of this workspace
{
  "servers": {
    /* the team's docs search */
    "docs": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "docs-server"], // pinned by hand
    },
  },
  "inputs": []
}
`;

function databaseProject(files: Record<string, string> = {}): string {
  const root = writeTree({ '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]), ...files });
  fs.writeFileSync(path.join(root, '.gsd', 'gsd.db'), emptySqliteDatabase());
  return root;
}

const VSCODE_MCP = (root: string) => path.join(root, '.vscode', 'mcp.json');
const plan = (root: string, projectKind: ProjectKind = 'gsd2-database', host: 'vscode' | 'claude' = 'vscode'): Plan =>
  planInstall({ root, host, user: false, home: home(), projectKind }, readOrNull);
const mcpChange = (p: Plan) => p.changes.find((c) => c.file.endsWith(path.join('.vscode', 'mcp.json')));

describe("GSD's workflow MCP server for VS Code's agent (install)", () => {
  it('merges gsd-workflow into an existing .vscode/mcp.json: comments, other servers and inputs kept byte for byte', () => {
    const root = databaseProject();
    const mcpJson = gsdMcpJson(root);
    fs.writeFileSync(path.join(root, '.mcp.json'), mcpJson);
    fs.mkdirSync(path.join(root, '.vscode'));
    fs.writeFileSync(VSCODE_MCP(root), USER_MCP);
    const p = plan(root);
    const change = mcpChange(p);
    assert.ok(change, `no .vscode/mcp.json change; skipped: ${p.skipped.join('; ')}`);
    const { conflicts } = applyFileChanges(p.changes);
    assert.deepEqual(conflicts, []);
    const after = fs.readFileSync(VSCODE_MCP(root), 'utf8');
    // Every byte of the user's file is still there, in order: the new entry is only inserted.
    const inserted = after.length - USER_MCP.length;
    const at = [...USER_MCP].findIndex((ch, i) => after[i] !== ch);
    assert.equal(after.slice(0, at) + after.slice(at + inserted), USER_MCP);
    const parsed = parseJsonc(after) as { servers: Record<string, unknown>; inputs: unknown[] };
    assert.deepEqual(parsed.servers['gsd-workflow'], expectedServer(root));
    assert.deepEqual(parsed.servers.docs, { type: 'stdio', command: 'npx', args: ['-y', 'docs-server'] });
    assert.deepEqual(parsed.inputs, []);
    // .mcp.json is GSD's: read, never written.
    assert.equal(fs.readFileSync(path.join(root, '.mcp.json'), 'utf8'), mcpJson);
    assert.ok(!p.changes.some((c) => c.file === path.join(root, '.mcp.json')));
  });

  it('is idempotent: a second install plans nothing for .vscode/mcp.json', () => {
    const root = databaseProject();
    fs.writeFileSync(path.join(root, '.mcp.json'), gsdMcpJson(root));
    applyFileChanges(plan(root).changes);
    const first = fs.readFileSync(VSCODE_MCP(root), 'utf8');
    assert.equal(mcpChange(plan(root)), undefined);
    assert.deepEqual((parseJsonc(first) as { servers: unknown }).servers, { 'gsd-workflow': expectedServer(root) });
  });

  it('follows GSD when `/gsd mcp init` wrote a new entry: the value is replaced, the rest stays', () => {
    const root = databaseProject();
    fs.writeFileSync(path.join(root, '.mcp.json'), gsdMcpJson(root));
    fs.mkdirSync(path.join(root, '.vscode'));
    fs.writeFileSync(VSCODE_MCP(root), USER_MCP);
    applyFileChanges(plan(root).changes);
    fs.writeFileSync(path.join(root, '.mcp.json'), gsdMcpJson(root, '/opt/gsd-3.0.1/cli.js'));
    const change = mcpChange(plan(root))!;
    applyFileChanges([change]);
    const parsed = parseJsonc(fs.readFileSync(VSCODE_MCP(root), 'utf8')) as { servers: Record<string, unknown> };
    assert.deepEqual(parsed.servers['gsd-workflow'], expectedServer(root, '/opt/gsd-3.0.1/cli.js'));
    assert.match(fs.readFileSync(VSCODE_MCP(root), 'utf8'), /\/\* the team's docs search \*\/[\s\S]*\/\/ pinned by hand/);
  });

  it('Undo and uninstall take it out again; a file install created is deleted', () => {
    const root = databaseProject();
    fs.writeFileSync(path.join(root, '.mcp.json'), gsdMcpJson(root));
    const applied = applyFileChanges(plan(root).changes).applied;
    assert.ok(fs.existsSync(VSCODE_MCP(root)));
    assert.deepEqual(revertFileChanges(applied).conflicts, []);
    assert.ok(!fs.existsSync(VSCODE_MCP(root)));

    fs.mkdirSync(path.join(root, '.vscode'), { recursive: true });
    fs.writeFileSync(VSCODE_MCP(root), USER_MCP);
    applyFileChanges(plan(root).changes);
    const out = planUninstall({ root, host: 'vscode', user: false, home: home(), projectKind: 'gsd2-database' }, readOrNull);
    applyFileChanges(out.changes);
    assert.equal(fs.readFileSync(VSCODE_MCP(root), 'utf8'), USER_MCP);
  });

  it('leaves a markdown project, the Claude host and a project without GSD\'s server as they are', () => {
    const md = databaseProject();
    fs.writeFileSync(path.join(md, '.mcp.json'), gsdMcpJson(md));
    assert.equal(mcpChange(plan(md, 'markdown')), undefined);
    assert.equal(mcpChange(plan(md, 'gsd2-database', 'claude')), undefined);
    assert.equal(planInstall({ root: md, host: 'vscode', user: false, home: home() }, readOrNull).changes.find((c) => c.file.includes('.vscode')), undefined);

    const bare = databaseProject();
    const p = plan(bare);
    assert.equal(mcpChange(p), undefined);
    assert.deepEqual(p.skipped, []);
    assert.match((p.notes ?? []).join('\n'), /run `\/gsd mcp init`/);
  });
});

describe("GSD's workflow MCP server for VS Code's agent (hostile input)", () => {
  function withGsdServer(): string {
    const root = databaseProject();
    fs.writeFileSync(path.join(root, '.mcp.json'), gsdMcpJson(root));
    return root;
  }

  it('a .vscode folder linked out of the repository gets nothing read or written through it', () => {
    const root = withGsdServer();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-victim-'));
    fs.writeFileSync(path.join(outside, 'mcp.json'), USER_MCP);
    fs.symlinkSync(outside, path.join(root, '.vscode'));
    const p = plan(root);
    assert.equal(mcpChange(p), undefined);
    assert.match(p.skipped.join('\n'), /mcp\.json leads outside/);
    applyFileChanges(p.changes);
    assert.equal(fs.readFileSync(path.join(outside, 'mcp.json'), 'utf8'), USER_MCP);
  });

  it('a .mcp.json linked out of the repository is not read', () => {
    const root = databaseProject();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-victim-'));
    fs.writeFileSync(path.join(outside, 'mcp.json'), gsdMcpJson('/elsewhere'));
    fs.symlinkSync(path.join(outside, 'mcp.json'), path.join(root, '.mcp.json'));
    const p = plan(root);
    assert.equal(mcpChange(p), undefined);
    assert.match(p.skipped.join('\n'), /\.mcp\.json leads outside/);
  });

  it('a huge .vscode/mcp.json is reported, never read whole nor replaced', () => {
    const root = withGsdServer();
    fs.mkdirSync(path.join(root, '.vscode'));
    const huge = `{"servers": {}, "padding": "${'x'.repeat(3 * 1024 * 1024)}"}\n`;
    fs.writeFileSync(VSCODE_MCP(root), huge);
    const p = plan(root);
    assert.equal(mcpChange(p), undefined);
    assert.match(p.skipped.join('\n'), /too large/);
    applyFileChanges(p.changes);
    assert.equal(fs.statSync(VSCODE_MCP(root)).size, Buffer.byteLength(huge));
  });

  it('broken JSON in .vscode/mcp.json gives a diagnostic with its line, and nothing is written', () => {
    const root = withGsdServer();
    fs.mkdirSync(path.join(root, '.vscode'));
    const broken = '{\n  "servers": {\n    "docs": { "command": "npx", }\n    "x" 1\n}\n';
    fs.writeFileSync(VSCODE_MCP(root), broken);
    const p = plan(root);
    assert.equal(mcpChange(p), undefined);
    assert.match(p.skipped.join('\n'), /mcp\.json:\d+: not a JSON object; left as it is/);
    applyFileChanges(p.changes);
    assert.equal(fs.readFileSync(VSCODE_MCP(root), 'utf8'), broken);
  });

  it('"servers" of the wrong type, a broken .mcp.json and a wrong-typed GSD entry are reported, nothing written', () => {
    const root = withGsdServer();
    fs.mkdirSync(path.join(root, '.vscode'));
    fs.writeFileSync(VSCODE_MCP(root), '{ "servers": [] }\n');
    assert.match(plan(root).skipped.join('\n'), /"servers" is not an object/);

    fs.writeFileSync(path.join(root, '.mcp.json'), '{ "mcpServers": { "gsd-workflow": ');
    assert.match(plan(root).skipped.join('\n'), /\.mcp\.json:\d+: not a JSON object/);

    fs.writeFileSync(path.join(root, '.mcp.json'), JSON.stringify({ mcpServers: { 'gsd-workflow': { command: 'node', env: { A: 1 } } } }));
    assert.match(plan(root).skipped.join('\n'), /env is not an object of strings/);
    assert.equal(fs.readFileSync(VSCODE_MCP(root), 'utf8'), '{ "servers": [] }\n');
  });

  it('a key JSON readers take only the last of ("servers", gsd-workflow) is refused, never spliced into the first one', () => {
    const root = withGsdServer();
    fs.mkdirSync(path.join(root, '.vscode'));
    const ours = JSON.stringify(expectedServer(root));
    const twice: Array<[string, string, RegExp]> = [
      [
        '"servers" twice',
        '{\n  "servers": { "docs": { "type": "stdio", "command": "npx" } },\n  "servers": { "lint": { "type": "stdio", "command": "lint-server" } }\n}\n',
        /mcp\.json:3: "servers" appears twice \(VS Code reads only the last\); left as it is/,
      ],
      [
        'gsd-workflow twice in "servers"',
        `{\n  "servers": {\n    "gsd-workflow": { "type": "stdio", "command": "/old/node" },\n    "gsd-workflow": ${ours}\n  }\n}\n`,
        /mcp\.json:4: "servers\.gsd-workflow" appears twice \(VS Code reads only the last\); left as it is/,
      ],
    ];
    for (const [name, text, message] of twice) {
      fs.writeFileSync(VSCODE_MCP(root), text);
      for (const p of [plan(root), planUninstall({ root, host: 'vscode', user: false, home: home(), projectKind: 'gsd2-database' }, readOrNull)]) {
        assert.equal(mcpChange(p), undefined, name);
        assert.match(p.skipped.join('\n'), message, name);
        applyFileChanges(p.changes);
        assert.equal(fs.readFileSync(VSCODE_MCP(root), 'utf8'), text, name);
      }
    }

    // GSD's own entry twice in .mcp.json: GSD and Claude Code run the last; nothing is copied from either.
    fs.rmSync(VSCODE_MCP(root));
    const entry = (cli: string) => JSON.stringify({ command: '/usr/local/bin/node', args: [cli] });
    fs.writeFileSync(path.join(root, '.mcp.json'), `{\n  "mcpServers": {\n    "gsd-workflow": ${entry('/old/cli.js')},\n    "gsd-workflow": ${entry('/new/cli.js')}\n  }\n}\n`);
    const p = plan(root);
    assert.equal(mcpChange(p), undefined);
    assert.match(p.skipped.join('\n'), /\.mcp\.json:4: "mcpServers\.gsd-workflow" appears twice \(GSD and Claude Code read only the last\); nothing copied/);
    assert.ok(!fs.existsSync(VSCODE_MCP(root)));
  });

  it('a change made to .vscode/mcp.json after the preview is not overwritten', () => {
    const root = withGsdServer();
    fs.mkdirSync(path.join(root, '.vscode'));
    fs.writeFileSync(VSCODE_MCP(root), USER_MCP);
    const p = plan(root);
    const edited = USER_MCP.replace('"inputs": []', '"inputs": [{ "id": "token", "type": "promptString" }]');
    fs.writeFileSync(VSCODE_MCP(root), edited);
    const { conflicts } = applyFileChanges(p.changes);
    assert.match(conflicts.join('\n'), /mcp\.json changed since it was read/);
    assert.equal(fs.readFileSync(VSCODE_MCP(root), 'utf8'), edited);
  });
});

describe('gsd-review install-hooks on a database project', () => {
  function run(root: string, args: { dryRun: boolean }): { code: number; out: unknown } {
    const chunks: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((s: string) => (chunks.push(s), true)) as typeof process.stdout.write;
    try {
      const code = runInstallHooksCommand({ root, host: 'vscode', user: false, dryRun: args.dryRun, json: true, uninstall: false, home: home() });
      return { code, out: JSON.parse(chunks.join('')) };
    } finally {
      process.stdout.write = write;
    }
  }

  it('detects the database project and plans .vscode/mcp.json; without gsd.db it does not', () => {
    const root = databaseProject();
    fs.writeFileSync(path.join(root, '.mcp.json'), gsdMcpJson(root));
    const { code, out } = run(root, { dryRun: true });
    assert.equal(code, 0);
    const changes = (out as { changes: Array<{ file: string; action: string }> }).changes;
    assert.ok(changes.some((c) => c.file === VSCODE_MCP(root) && c.action === 'create'), JSON.stringify(changes));
    assert.ok(!fs.existsSync(VSCODE_MCP(root)), 'a dry run wrote');

    fs.rmSync(path.join(root, '.gsd', 'gsd.db'));
    const md = run(root, { dryRun: true }).out as { changes: Array<{ file: string }> };
    assert.ok(!md.changes.some((c) => c.file.includes('.vscode')));
  });
});
