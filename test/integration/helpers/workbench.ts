// Asks the runner that drives the browser (code-server host only) to screenshot the real workbench
// and to say which texts it can see in the page. Requests and answers are JSON files in
// GSD_WORKBENCH_BRIDGE; under @vscode/test-electron there is no browser and this returns null.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface WorkbenchView {
  screenshot: string;
  seen: Record<string, boolean>;
}

let counter = 0;

export function workbenchBridgeAvailable(): boolean {
  return Boolean(process.env.GSD_WORKBENCH_BRIDGE);
}

export async function captureWorkbench(name: string, expectTexts: string[] = [], timeoutMs = 20_000): Promise<WorkbenchView | null> {
  const dir = process.env.GSD_WORKBENCH_BRIDGE;
  if (!dir) return null;
  const n = ++counter;
  const response = path.join(dir, `res-${process.pid}-${n}.json`);
  fs.writeFileSync(path.join(dir, `req-${process.pid}-${n}.json.tmp`), JSON.stringify({ name, expectTexts, response }));
  fs.renameSync(path.join(dir, `req-${process.pid}-${n}.json.tmp`), path.join(dir, `req-${process.pid}-${n}.json`));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(response)) return JSON.parse(fs.readFileSync(response, 'utf8')) as WorkbenchView;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the test runner did not answer the screenshot request "${name}" within ${timeoutMs / 1000} s`);
}
