// Review findings as comment threads at their file and line (one comment controller). Threads are
// made only for the files shown in an editor, from the index of the last state (review-findings.ts),
// and kept in step with it: a thread whose issue is gone (a new cycle, an approval) is disposed, so
// nothing piles up across cycles. Lines follow edits made in the editor (line-tracking.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { markdownText } from '../panel/project-text';
import { lineAfterEdits, lineEditBetween, type LineEdit } from '../../core/reviews/line-tracking';
import { reviewFindings, unplacedNote, type FindingIndex, type ReviewFinding } from '../../core/reviews/review-findings';
import type { GsdWorkspace, ProjectHandle } from '../workspace/gsd-workspace';
import { Owner } from '../lifecycle/owner';

export const FINDINGS_CONTROLLER = 'gsdReviewLoop.findings';

/**
 * The most threads one document gets; past it, one more thread at its first line says how many of
 * the review's findings are not shown there. A review naming 50,000 places in one file took 9 s to
 * paint in the extension host alone (VS Code 1.100.3) and left 50,000 threads for the editor to draw.
 */
export const MAX_THREADS_PER_DOCUMENT = 200;

interface Painted {
  thread: vscode.CommentThread;
  finding: ReviewFinding;
  handle: ProjectHandle;
  /** What the thread shows; a different one is re-made. */
  signature: string;
  /** 0-based line the finding was placed at, and how many edits of the document had been seen then. */
  baseLine: number;
  seenEdits: number;
}

export interface FindingThread {
  thread: vscode.CommentThread;
  finding: ReviewFinding;
  handle: ProjectHandle;
}

function mtime(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

export class FindingThreads extends Owner implements vscode.Disposable {
  private readonly controller = this.own(vscode.comments.createCommentController(FINDINGS_CONTROLLER, 'GSD review'));
  private indexes = new Map<ProjectHandle, FindingIndex>();
  /** Painted threads by document path, then finding key. */
  private readonly painted = new Map<string, Map<string, Painted>>();
  /** Edits made in the editor since each document with findings was first painted, and its lines then. */
  private readonly edits = new Map<string, LineEdit[]>();
  private readonly texts = new Map<string, string[]>();
  /** The thread saying how many findings a document does not show (MAX_THREADS_PER_DOCUMENT), by document path. */
  private readonly overflow = new Map<string, vscode.CommentThread>();

  constructor(private readonly workspace: GsdWorkspace) {
    super();
    this.own(vscode.window.onDidChangeVisibleTextEditors(() => this.paintVisible()));
    this.own(vscode.workspace.onDidChangeTextDocument((e) => this.followEdits(e)));
    this.own(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri.fsPath)));
    this.own(vscode.workspace.onDidGrantWorkspaceTrust(() => this.repaintAll()));
  }

  /** Rebuilds every project's index from its state and repaints the visible editors. */
  update(): void {
    const next = new Map<ProjectHandle, FindingIndex>();
    for (const handle of this.workspace.list()) {
      // Findings are built from every task's reviews: once the project is read (its end calls update again).
      if (this.workspace.isReading(handle)) continue;
      const state = this.workspace.state(handle);
      next.set(handle, reviewFindings(state, handle.engine.readOnly));
    }
    this.indexes = next;
    this.paintVisible();
  }

  /** Each project's findings as last built. */
  projects(): Array<{ handle: ProjectHandle; index: FindingIndex }> {
    return [...this.indexes].map(([handle, index]) => ({ handle, index }));
  }

  /** The threads shown on a document now (tests and the Problems quick fixes look them up). */
  threadsOf(file: string): FindingThread[] {
    return [...(this.painted.get(file)?.values() ?? [])].map(({ thread, finding, handle }) => ({ thread, finding, handle }));
  }

  /** The thread saying how many findings are not shown on a document, if there is one. */
  overflowOf(file: string): vscode.CommentThread | undefined {
    return this.overflow.get(file);
  }

  /** The finding a thread shows (the thread commands receive the thread). */
  findingOf(thread: vscode.CommentThread): FindingThread | undefined {
    for (const byKey of this.painted.values()) for (const p of byKey.values()) if (p.thread === thread) return p;
    return undefined;
  }

  writable(handle: ProjectHandle): boolean {
    return vscode.workspace.isTrusted && !this.workspace.isReadOnly(handle);
  }

  paintVisible(): void {
    // A state change announced while the extension ends must not paint on the disposed controller.
    if (this.disposed) return;
    const shown = new Set<string>();
    for (const editor of vscode.window.visibleTextEditors) {
      const doc = editor.document;
      if (doc.uri.scheme !== 'file' || shown.has(doc.uri.fsPath)) continue;
      shown.add(doc.uri.fsPath);
      this.paint(doc);
    }
    // Threads of documents still open but not shown are kept (they come back as they were);
    // those of closed documents went with them (forget).
  }

  private repaintAll(): void {
    for (const byKey of this.painted.values()) for (const p of byKey.values()) p.thread.dispose();
    this.painted.clear();
    for (const t of this.overflow.values()) t.dispose();
    this.overflow.clear();
    this.paintVisible();
  }

  /** What belongs on one document: its placed findings, and on a review file the ones kept there. */
  private wanted(doc: vscode.TextDocument): Array<{ finding: ReviewFinding; handle: ProjectHandle; line: number; note: string | null }> {
    const file = doc.uri.fsPath;
    const out: Array<{ finding: ReviewFinding; handle: ProjectHandle; line: number; note: string | null }> = [];
    for (const [handle, index] of this.indexes) {
      for (const f of index.byFile.get(file) ?? []) {
        const line = (f.location!.line ?? 1) - 1;
        // A line past the end is no place: the finding shows on its review file instead.
        if (line < doc.lineCount) out.push({ finding: f, handle, line, note: null });
      }
      for (const f of index.byReview.get(file) ?? []) out.push({ finding: f, handle, line: Math.max(0, f.reviewLine - 1), note: unplacedNote(f, null) });
      if (!index.byReview.has(file) && !this.isReviewFile(index, file)) continue;
      // Placed findings of this review whose file is gone, or too short: kept here with a note.
      // Each file looked at once (a review may name the same file 50,000 times).
      const known = new Map<string, { open: vscode.TextDocument | undefined; exists: boolean }>();
      for (const f of index.all) {
        if (f.reviewFile !== file || !f.file || f.reviewLine < 1) continue;
        let place = known.get(f.file);
        if (!place) {
          const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === f.file);
          place = { open, exists: open !== undefined || mtime(f.file) !== null };
          known.set(f.file, place);
        }
        const missing = !place.exists ? 'file' : place.open && f.location!.line !== null && f.location!.line > place.open.lineCount ? 'line' : null;
        if (missing) out.push({ finding: f, handle, line: f.reviewLine - 1, note: unplacedNote(f, missing) });
      }
    }
    return out;
  }

  private placedOn(file: string): boolean {
    for (const index of this.indexes.values()) if (index.byFile.has(file)) return true;
    return false;
  }

  private isReviewFile(index: FindingIndex, file: string): boolean {
    return /-CODE-REVIEW(-C\d+)?\.md$/i.test(file) && index.all.some((f) => f.reviewFile === file);
  }

  private paint(doc: vscode.TextDocument): void {
    const file = doc.uri.fsPath;
    if (!this.texts.has(file) && this.placedOn(file)) this.texts.set(file, doc.getText().split(/\r?\n/));
    const before = this.painted.get(file) ?? new Map<string, Painted>();
    const after = new Map<string, Painted>();
    const edits = this.edits.get(file) ?? [];
    const reviewTimes = new Map<string, number | null>();
    const fileTime = mtime(file);
    const wanted = this.wanted(doc);
    this.paintOverflow(doc, wanted.length - MAX_THREADS_PER_DOCUMENT);
    for (const { finding, handle, line, note } of wanted.slice(0, MAX_THREADS_PER_DOCUMENT)) {
      const writable = this.writable(handle);
      if (!reviewTimes.has(finding.reviewFile)) reviewTimes.set(finding.reviewFile, mtime(finding.reviewFile));
      const reviewTime = reviewTimes.get(finding.reviewFile) ?? null;
      // No commit is recorded with a review cycle: a file saved after the review may have moved.
      const old = before.get(finding.key);
      const shifted = old !== undefined && lineAfterEdits(old.baseLine, edits, old.seenEdits) !== old.baseLine;
      const moved = note === null && (shifted || (fileTime !== null && reviewTime !== null && fileTime > reviewTime + 1000));
      const signature = JSON.stringify([finding.resolved, finding.text, finding.severity, note, writable, moved, finding.reviewFile, finding.reviewLine]);
      if (old && old.signature === signature) {
        after.set(finding.key, old);
        before.delete(finding.key);
        continue;
      }
      const baseLine = old ? old.baseLine : line;
      const seenEdits = old ? old.seenEdits : note === null ? edits.length : 0;
      const at = note === null ? Math.max(0, Math.min(lineAfterEdits(baseLine, edits, seenEdits), doc.lineCount - 1)) : line;
      const thread = old?.thread ?? this.controller.createCommentThread(doc.uri, new vscode.Range(at, 0, at, 0), []);
      if (old) before.delete(finding.key);
      this.dress(thread, finding, writable, note, moved);
      after.set(finding.key, { thread, finding, handle, signature, baseLine, seenEdits });
    }
    for (const gone of before.values()) gone.thread.dispose();
    if (after.size > 0) this.painted.set(file, after);
    else this.painted.delete(file);
  }

  /** The thread at the document's first line saying how many findings it does not show (none when `more` ≤ 0). */
  private paintOverflow(doc: vscode.TextDocument, more: number): void {
    const file = doc.uri.fsPath;
    let thread = this.overflow.get(file);
    if (more <= 0) {
      thread?.dispose();
      this.overflow.delete(file);
      return;
    }
    if (!thread) {
      thread = this.controller.createCommentThread(doc.uri, new vscode.Range(0, 0, 0, 0), []);
      this.overflow.set(file, thread);
    }
    const count = more.toLocaleString(vscode.env.language);
    const body = new vscode.MarkdownString(vscode.l10n.t('The review names {0} more findings on this file than the {1} shown here. Open the review to read them all.', count, MAX_THREADS_PER_DOCUMENT));
    thread.comments = [{ body, mode: vscode.CommentMode.Preview, author: { name: 'GSD review' } }];
    thread.label = vscode.l10n.t('{0} more findings', count);
    thread.canReply = false;
    thread.contextValue = 'gsdReviewLoop.finding.more';
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
  }

  private dress(thread: vscode.CommentThread, f: ReviewFinding, writable: boolean, note: string | null, moved: boolean): void {
    const severity = f.severity ?? 'issue';
    const body = new vscode.MarkdownString();
    body.appendMarkdown(`**${severity}** · ${f.taskId} · review cycle ${f.cycle}${f.resolved ? ' · resolved' : ''}\n\n`);
    // Escaped by hand: appendText turns spaces into &nbsp;, and the comment would not wrap.
    // Its code spans render as code; nothing else of the review's text is taken as markdown.
    body.appendMarkdown(markdownText(f.text));
    body.appendMarkdown('\n\n');
    const reviewName = path.basename(f.reviewFile);
    if (f.reviewLine > 0) {
      const link = vscode.Uri.file(f.reviewFile).with({ fragment: `L${f.reviewLine}` });
      body.appendMarkdown(`[${reviewName}, line ${f.reviewLine}](${link.toString()}) · ${f.unitId}`);
    } else {
      body.appendMarkdown(`${f.fromGsd ? "GSD's review" : reviewName} · ${f.unitId}`);
    }
    if (note) body.appendMarkdown(`\n\n_${note}_`);
    if (moved) body.appendMarkdown('\n\n_This file changed after the review was written: the line may have moved._');
    thread.comments = [{ body, mode: vscode.CommentMode.Preview, author: { name: `GSD review · ${f.taskId}` }, label: f.fromGsd ? "GSD's review" : undefined }];
    thread.label = `${severity} · ${f.taskId} cycle ${f.cycle}`;
    thread.canReply = false;
    thread.state = f.resolved ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    thread.collapsibleState = f.resolved ? vscode.CommentThreadCollapsibleState.Collapsed : vscode.CommentThreadCollapsibleState.Expanded;
    // Read by the `when` clauses of the thread's actions (package.json `comments/commentThread/title`).
    thread.contextValue = `gsdReviewLoop.finding.${f.resolved ? 'resolved' : 'open'}${writable && !f.fromGsd && f.reviewLine > 0 ? '.writable' : ''}`;
  }

  /**
   * Moves the document's threads with an edit, and keeps the edit for threads painted later. The
   * edit is worked out from the lines before and after (lineEditBetween), so a revert or a format
   * that replaces the whole text moves threads as little as a keystroke does.
   */
  private followEdits(e: vscode.TextDocumentChangeEvent): void {
    if (e.document.uri.scheme !== 'file' || e.contentChanges.length === 0) return;
    const file = e.document.uri.fsPath;
    const before = this.texts.get(file);
    if (!before) return;
    const after = e.document.getText().split(/\r?\n/);
    this.texts.set(file, after);
    const edit = lineEditBetween(before, after);
    if (!edit) return;
    const list = this.edits.get(file) ?? [];
    list.push(edit);
    this.edits.set(file, list);
    const byKey = this.painted.get(file);
    if (!byKey) return;
    for (const p of byKey.values()) {
      if (p.thread.range === undefined || p.finding.file !== file) continue;
      const at = Math.max(0, Math.min(lineAfterEdits(p.baseLine, list, p.seenEdits), e.document.lineCount - 1));
      if (p.thread.range.start.line !== at) p.thread.range = new vscode.Range(at, 0, at, 0);
    }
  }

  private forget(file: string): void {
    this.edits.delete(file);
    this.texts.delete(file);
    this.overflow.get(file)?.dispose();
    this.overflow.delete(file);
    const byKey = this.painted.get(file);
    if (!byKey) return;
    for (const p of byKey.values()) p.thread.dispose();
    this.painted.delete(file);
  }

  override dispose(): void {
    // The threads come and go with the findings, so they are not owned; they go before their controller.
    for (const byKey of this.painted.values()) for (const p of byKey.values()) p.thread.dispose();
    this.painted.clear();
    for (const t of this.overflow.values()) t.dispose();
    this.overflow.clear();
    super.dispose();
  }
}
