// GSD's workflow MCP server made available to VS Code's agent. On a GSD-2 database project the
// prompts tell the agent to call `gsd-workflow`'s tools (prompts/workflow-tool-prompts.ts); Claude
// Code finds that server in `.mcp.json`, where `/gsd mcp init` writes it, but VS Code's agent takes
// servers from `.vscode/mcp.json` (`{"servers": {name: {type: "stdio", command, args, env, cwd}}}`,
// JSON with comments and trailing commas). So the install reads GSD's entry and adds the same server
// to `.vscode/mcp.json`, spliced in so every other byte (comments, other servers) stays. `.mcp.json`
// is only read: GSD wrote it and it stays as GSD wrote it.
// Why the file and not `vscode.lm.registerMcpServerDefinitionProvider`: the provider is a proposed
// API in VS Code 1.100 (its extension host checks the `mcpConfigurationProvider` proposal; finalized
// later), which a published extension may not use; `.vscode/mcp.json` is read by 1.100.3 and 1.139.1
// alike, and by any VS Code the user opens the repository in, with or without this extension.
// Facts: GSD-2 at 76568edc, src/resources/extensions/gsd/mcp-project-config.ts (`mcpServers`,
// GSD_WORKFLOW_MCP_SERVER_NAME, entry {command, args?, cwd?, env?, url?}); VS Code's
// src/vs/workbench/contrib/mcp/common/mcpConfiguration.ts (`mcpStdioServerSchema`: type, command,
// cwd, args, envFile, env; remote servers: type http|sse, url, headers).
import * as path from 'node:path';
import { getNodeValue, type Node } from 'jsonc-parser/lib/esm/main.js';
import { GSD_WORKFLOW_SERVER } from '../prompts/workflow-tool-prompts';
import { appendTo, lineAt, nodeAt, parseJsonTree, removeNode, repeatedAlong, replaceValue, propertyOf } from './json-splice';
import type { FileChange, ReadFile } from '../files/file-changes';

export const CLAUDE_MCP_FILE = '.mcp.json';
export const VSCODE_MCP_FILE = path.join('.vscode', 'mcp.json');

export type VscodeMcpServer =
  | { type: 'stdio'; command: string; args?: string[]; cwd?: string; env?: Record<string, string> }
  | { type: 'http'; url: string };

export class McpConfigError extends Error {}

/** Refuses a file where a key on `keys` appears twice: its readers take the last, a splice the first. */
function refuseRepeated(text: string, root: Node, keys: readonly string[], file: string, readers: string, outcome: string): void {
  const twice = repeatedAlong(root, keys);
  if (twice) throw new McpConfigError(`${file}:${lineAt(text, twice.offset)}: "${twice.path}" appears twice (${readers} only the last); ${outcome}`);
}

/** Our path in `.vscode/mcp.json`, which VS Code reads, and GSD's in `.mcp.json`, which we copy. */
const OUR_SERVER = ['servers', GSD_WORKFLOW_SERVER];
const GSD_ENTRY = ['mcpServers', GSD_WORKFLOW_SERVER];

const isStringRecord = (v: unknown): v is Record<string, string> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

/**
 * GSD's `gsd-workflow` entry of `.mcp.json`, as a `.vscode/mcp.json` server; null when there is
 * none. Throws McpConfigError (one line) for a file that is not JSON or an entry of the wrong shape.
 */
export function gsdWorkflowServerOf(text: string, file: string): VscodeMcpServer | null {
  let root;
  try {
    root = parseJsonTree(text, file);
  } catch (error) {
    throw new McpConfigError((error as Error).message);
  }
  refuseRepeated(text, root, GSD_ENTRY, file, 'GSD and Claude Code read', 'nothing copied');
  const node = nodeAt(root, GSD_ENTRY);
  if (!node) return null;
  const entry = getNodeValue(node) as Record<string, unknown>;
  const bad = (what: string) => new McpConfigError(`${file}: mcpServers.${GSD_WORKFLOW_SERVER}.${what}; left as it is`);
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new McpConfigError(`${file}: mcpServers.${GSD_WORKFLOW_SERVER} is not an object; left as it is`);
  if (typeof entry.command !== 'string' || entry.command.trim() === '') {
    if (typeof entry.url === 'string' && /^https?:\/\//.test(entry.url)) return { type: 'http', url: entry.url };
    throw bad('command is missing');
  }
  const server: VscodeMcpServer = { type: 'stdio', command: entry.command };
  if (entry.args !== undefined) {
    if (!Array.isArray(entry.args) || !entry.args.every((a) => typeof a === 'string')) throw bad('args is not a list of strings');
    server.args = entry.args as string[];
  }
  if (entry.cwd !== undefined) {
    if (typeof entry.cwd !== 'string') throw bad('cwd is not a string');
    server.cwd = entry.cwd;
  }
  if (entry.env !== undefined) {
    if (!isStringRecord(entry.env)) throw bad('env is not an object of strings');
    server.env = entry.env;
  }
  return server;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `.vscode/mcp.json` with `servers.gsd-workflow` set to `server`; the rest of the text kept byte for byte. */
export function withWorkflowServer(text: string | null, server: VscodeMcpServer, file: string): string {
  if (text === null || text.trim() === '') return JSON.stringify({ servers: { [GSD_WORKFLOW_SERVER]: server } }, null, 2) + '\n';
  const root = parseJsonTree(text, file);
  refuseRepeated(text, root, OUR_SERVER, file, 'VS Code reads', 'left as it is');
  const servers = nodeAt(root, ['servers']);
  if (!servers) return appendTo(text, root, { key: 'servers', value: { [GSD_WORKFLOW_SERVER]: server } });
  if (servers.type !== 'object') throw new McpConfigError(`${file}: "servers" is not an object; left as it is`);
  const existing = nodeAt(root, OUR_SERVER);
  if (!existing) return appendTo(text, servers, { key: GSD_WORKFLOW_SERVER, value: server });
  return sameValue(getNodeValue(existing), server) ? text : replaceValue(text, existing, server);
}

/**
 * `.vscode/mcp.json` without our `servers.gsd-workflow` (only when it is still the entry GSD's
 * `.mcp.json` gives); null when nothing else is left in the file, so uninstall deletes what install created.
 */
export function withoutWorkflowServer(text: string, server: VscodeMcpServer, file: string): string | null {
  const root = parseJsonTree(text, file);
  refuseRepeated(text, root, OUR_SERVER, file, 'VS Code reads', 'left as it is');
  const existing = nodeAt(root, OUR_SERVER);
  if (!existing || !sameValue(getNodeValue(existing), server)) return text;
  const out = removeNode(text, propertyOf(existing));
  return out.replace(/\s+/g, '') === '{"servers":{}}' ? null : out;
}

export interface WorkflowServerPlan {
  change?: FileChange;
  /** Why nothing is planned, when it is worth saying (no `.mcp.json` entry yet). */
  note?: string;
  /** A file that stops the step (unreadable, not JSON, linked out of the repository). */
  skipped?: string;
}

const PURPOSE = `GSD's ${GSD_WORKFLOW_SERVER} MCP server (as in .mcp.json) for VS Code's agent: on this database project the prompts ask the agent to record progress through its tools`;

/** The `.vscode/mcp.json` change that adds (or, with `remove`, takes out) GSD's server; `read` confines to the repository. */
export function planWorkflowServer(root: string, read: ReadFile, remove = false): WorkflowServerPlan {
  const mcpFile = path.join(root, CLAUDE_MCP_FILE);
  const vscodeFile = path.join(root, VSCODE_MCP_FILE);
  try {
    const mcpText = read(mcpFile);
    const server = mcpText === null ? null : gsdWorkflowServerOf(mcpText, mcpFile);
    if (!server) {
      return remove ? {} : { note: `${CLAUDE_MCP_FILE} has no ${GSD_WORKFLOW_SERVER} server yet: run \`/gsd mcp init\` in GSD, then install again to make it available to VS Code's agent` };
    }
    const before = read(vscodeFile);
    if (remove) {
      if (before === null) return {};
      const after = withoutWorkflowServer(before, server, vscodeFile);
      return after === before ? {} : { change: { file: vscodeFile, before, after, purpose: `GSD's ${GSD_WORKFLOW_SERVER} server taken out of VS Code's MCP servers` } };
    }
    const after = withWorkflowServer(before, server, vscodeFile);
    return after === before ? {} : { change: { file: vscodeFile, before, after, purpose: PURPOSE } };
  } catch (error) {
    return { skipped: (error as Error).message };
  }
}
