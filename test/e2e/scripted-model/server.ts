// A scripted model on 127.0.0.1 that agent hosts can be pointed at: the Anthropic Messages API
// (`POST /v1/messages`, for Claude Code) and the OpenAI chat-completions API (`POST
// /v1/chat/completions`, `GET /v1/models`, for Copilot CLI and VS Code's custom endpoints), both
// streaming. Each request is read into one conversation shape, recorded, and answered with the turn
// the scenario's script gives for it, so tests can assert what each host sent the model.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAnthropicRequest, writeAnthropicTokenCount, writeAnthropicTurn } from './anthropic';
import type { ModelRequest, Script, ScriptedTurn } from './conversation';
import { readOpenAiRequest, writeOpenAiModels, writeOpenAiTurn } from './openai';

export * from './conversation';

export interface ScriptedModel {
  /** `http://127.0.0.1:PORT` (no trailing slash, no `/v1`). */
  url: string;
  port: number;
  /** Every model request received, oldest first (token counts and model lists are not recorded). */
  requests: ModelRequest[];
  /** Every HTTP request line received (`POST /v1/messages?beta=true`), for diagnostics. */
  seen: string[];
  /** Replaces the script (e.g. between scenarios on one server). */
  setScript(script: Script): void;
  close(): Promise<void>;
}

export interface ScriptedModelOptions {
  script: Script;
  /** The model id `GET /v1/models` names. */
  model?: string;
  /** Largest request body read (default 32 MiB); larger requests get 413. */
  maxBodyBytes?: number;
}

function readBody(req: http.IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Starts the server on 127.0.0.1 (a free port). */
export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModel> {
  let script = options.script;
  const model = options.model ?? 'scripted-model';
  const requests: ModelRequest[] = [];
  const seen: string[] = [];
  const started = Date.now();
  const answer = async (request: ModelRequest): Promise<ScriptedTurn> => {
    let turn: ScriptedTurn;
    try {
      turn = script(request);
    } catch (error) {
      // A script that throws ends the turn with the error as text, visible in the host's output.
      turn = { text: `scripted model: the script failed: ${(error as Error).message}` };
    }
    request.reply = turn;
    if (turn.delayMs) await new Promise((r) => setTimeout(r, Math.min(turn.delayMs!, 60_000)));
    return turn;
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = url.pathname.replace(/\/+$/, '');
    seen.push(`${req.method} ${req.url}`);
    try {
      if (req.method === 'GET' && /\/models$/.test(route)) return writeOpenAiModels(res, model);
      if (req.method !== 'POST') return json(res, 404, { error: { message: `no ${req.method} ${route} here` } });
      const text = await readBody(req, options.maxBodyBytes ?? 32 * 1024 * 1024);
      if (text === null) return json(res, 413, { error: { message: 'request too large' } });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return json(res, 400, { error: { message: 'body is not JSON' } });
      }
      if (/\/messages\/count_tokens$/.test(route)) return writeAnthropicTokenCount(res, body);
      if (/\/messages$/.test(route)) {
        const request = readAnthropicRequest(body, route, Date.now() - started);
        requests.push(request);
        return writeAnthropicTurn(res, request, await answer(request));
      }
      if (/\/chat\/completions$/.test(route)) {
        const request = readOpenAiRequest(body, route, Date.now() - started);
        requests.push(request);
        return writeOpenAiTurn(res, request, await answer(request));
      }
      return json(res, 404, { error: { message: `no ${route} here` } });
    } catch (error) {
      if (!res.headersSent) json(res, 500, { error: { message: (error as Error).message } });
      else res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    seen,
    setScript: (s) => (script = s),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
