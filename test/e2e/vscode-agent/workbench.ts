// VS Code's Local agent in the real workbench: code-server (VS Code server + web workbench) driven
// through Debian's chromium, as a user would use it offline (docs/agent-hooks.md): a fresh
// user-data folder whose `chatLanguageModels.json` names a `customendpoint` model served by our
// scripted model on 127.0.0.1, "Extensions: Enable All Extensions" after the page loads (the
// built-in Copilot Chat stays disabled until chat setup otherwise), then the Chat view in Agent mode
// with that model. Our extension is installed into the extensions folder as a user has it, so the
// hook launcher finds the CLI through the pointer the extension writes into the (temporary) home.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from './project';

/** The parts of scripts/vscode-host/code-server-host.mjs used here. */
interface CodeServer {
  url: string;
  port: number;
  userDataDir: string;
  extensionsDir: string;
  version: string;
  vscodeVersion: string;
  stop(): Promise<void>;
}
interface CodeServerHost {
  startCodeServer(options: { version?: string; folder?: string; env?: Record<string, string>; settings?: object; extensionsDir?: string }): Promise<CodeServer>;
  launchBrowser(): Promise<Browser>;
}

export interface AgentWorkbench {
  page: Page;
  server: CodeServer;
  home: string;
  /** VS Code's own log of every hook it ran (input, output, timing). */
  hooksLog(): string;
  /** A screenshot of the whole workbench into the artifacts folder; returns its path. */
  screenshot(name: string): Promise<string>;
  stop(): Promise<void>;
}

export const MODEL_NAME = 'Mock Model';

/** Our extension as a user has it installed: its manifest and bundle, no tests. */
function installOurExtension(extensionsDir: string): void {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  const dest = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  for (const entry of ['package.json', 'package.nls.json', 'dist', 'media', 'README.md', 'LICENSE']) {
    const from = path.join(repoRoot, entry);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dest, entry), { recursive: true });
  }
  fs.rmSync(path.join(dest, 'dist', 'test'), { recursive: true, force: true });
  fs.rmSync(path.join(dest, 'dist', 'bench'), { recursive: true, force: true });
}

export async function startAgentWorkbench(options: { folder: string; modelUrl: string; work: string; artifactsDir: string; version: string }): Promise<AgentWorkbench> {
  const host = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'vscode-host', 'code-server-host.mjs')).href)) as CodeServerHost;
  const home = path.join(options.work, 'home');
  const extensionsDir = path.join(options.work, 'extensions');
  fs.mkdirSync(home, { recursive: true });
  installOurExtension(extensionsDir);
  const server = await host.startCodeServer({
    version: options.version,
    folder: options.folder,
    extensionsDir,
    env: { HOME: home },
    settings: {
      'chat.useHooks': true,
      'chat.useCustomAgentHooks': true,
      'chat.tools.global.autoApprove': false,
    },
  });
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    await server.stop();
  };
  try {
    fs.writeFileSync(
      path.join(server.userDataDir, 'User', 'chatLanguageModels.json'),
      JSON.stringify([
        {
          name: 'Mock',
          vendor: 'customendpoint',
          apiKey: 'unused',
          models: [{ id: 'mock-model', name: MODEL_NAME, url: `${options.modelUrl}/v1/chat/completions`, toolCalling: true, vision: false, maxInputTokens: 128000, maxOutputTokens: 16000 }],
        },
      ]),
    );
    browser = await host.launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    fs.mkdirSync(options.artifactsDir, { recursive: true });
    const consoleLog = path.join(options.artifactsDir, 'browser-console.log');
    fs.writeFileSync(consoleLog, '');
    page.on('console', (m) => fs.appendFileSync(consoleLog, `[${m.type()}] ${m.text()}\n`));
    await page.goto(`${server.url}/?folder=${encodeURIComponent(options.folder)}`);
    await page.locator('.activitybar').waitFor({ timeout: 120_000 });
    await runCommand(page, 'Extensions: Enable All Extensions');
    const hooksLog = () => {
      const logs = path.join(server.userDataDir, 'logs');
      if (!fs.existsSync(logs)) return '';
      return fs
        .readdirSync(logs)
        .map((session) => path.join(logs, session, 'exthost1', 'GitHub.copilot-chat', 'GitHub Copilot Chat Hooks.log'))
        .filter((f) => fs.existsSync(f))
        .map((f) => fs.readFileSync(f, 'utf8'))
        .join('');
    };
    let shot = 0;
    const screenshot = async (name: string) => {
      shot += 1;
      const file = path.join(options.artifactsDir, `${String(shot).padStart(2, '0')}-${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path: file });
      return file;
    };
    return {
      page,
      server,
      home,
      hooksLog,
      screenshot,
      stop: async () => {
        // Keep VS Code's logs (the hooks log above all) beside the screenshots.
        const logs = path.join(server.userDataDir, 'logs');
        if (fs.existsSync(logs)) fs.cpSync(logs, path.join(options.artifactsDir, 'vscode-logs'), { recursive: true });
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Runs a command from the palette by its exact label. Commands of extensions register as their
 * extension activates: until then the palette offers only similar ones, so it is asked again.
 */
export async function runCommand(page: Page, label: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`>${label}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    if (await row.waitFor({ timeout: 2000 }).then(() => true, () => false)) {
      const text = (await row.innerText()).split('\n')[0].trim();
      if (text === label) {
        await page.keyboard.press('Enter');
        return;
      }
    }
    await page.keyboard.press('Escape');
    // Asked again once the palette has closed (the extension may still be activating).
    await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
  }
  throw new Error(`the command palette never offered "${label}"`);
}

/**
 * The Chat view, in Agent mode, with our model picked: it is the only model, so VS Code picks it
 * once Copilot Chat runs. The workbench disables the built-in Copilot Chat on a first start
 * (until chat setup), possibly after our "Enable All Extensions" ran: then it is run again.
 */
export async function openAgentChat(page: Page, timeoutMs = 240_000): Promise<void> {
  const input = page.locator('.interactive-input-part').first();
  if (!(await input.isVisible().catch(() => false))) await page.keyboard.press('Control+Alt+i');
  await input.waitFor({ timeout: 30_000 });
  const model = input.getByText(MODEL_NAME).first();
  const deadline = Date.now() + timeoutMs;
  while (!(await model.waitFor({ timeout: 30_000 }).then(() => true, () => false))) {
    if (Date.now() > deadline) throw new Error(`the chat never offered ${MODEL_NAME} (is Copilot Chat enabled?)`);
    await runCommand(page, 'Extensions: Enable All Extensions');
  }
  // A notice over the input ("Set BYOK utility models") would cover the last lines of the chat.
  const notice = page.locator('.chat-input-notification .codicon-close, .chat-input-notification [aria-label="Close"]').first();
  if (await notice.isVisible().catch(() => false)) await notice.click().catch(() => undefined);
}

/** A new chat session in the Chat view (New Chat: Ctrl+L while the chat has focus). */
export async function newChat(page: Page): Promise<void> {
  await page.locator('.interactive-input-part .monaco-editor').first().click();
  await page.keyboard.press('Control+L');
  await page.locator('.interactive-list .interactive-request').first().waitFor({ state: 'detached', timeout: 10_000 });
}

/** Opens the collapsed "Completed N steps" lists, so a screenshot shows the tool calls and hook messages. */
export async function expandSteps(page: Page): Promise<void> {
  for (const step of await page.getByText(/^Completed \d+ steps?/).all()) await step.click().catch(() => undefined);
}

/** Types a prompt into the chat input and sends it. */
export async function sendPrompt(page: Page, prompt: string): Promise<void> {
  const editor = page.locator('.interactive-input-part .monaco-editor').first();
  await editor.click();
  await page.keyboard.type(prompt);
  await page.keyboard.press('Enter');
}

/** Waits until `done()` holds, polling; fails with `what` after the timeout. */
export async function waitUntil(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
}

/** The text the chat view shows (the conversation list). */
export async function chatText(page: Page): Promise<string> {
  return page.locator('.interactive-list').first().innerText().catch(() => '');
}

/** Waits until the chat view has drawn what it got: its text the same over three reads in a row. */
export async function chatSettled(page: Page, timeoutMs = 30_000): Promise<void> {
  let last = '';
  let same = 0;
  await waitUntil('the chat view to settle', async () => {
    const now = await chatText(page);
    same = now === last && now !== '' ? same + 1 : 0;
    last = now;
    return same >= 2;
  }, timeoutMs);
}
