// State of a GSD-2 database project (gsd-pi 3.x) from `.gsd/gsd.db`, GSD's own truth. When the
// database cannot be read (no node:sqlite in this runtime, a schema newer than we know, GSD holding
// its lock through every retry, a damaged file) the markdown GSD renders is read instead, and the
// state says so: one diagnostic line and a `source` labelled as the fallback. A busy database is
// tried again on the next change; a runtime without node:sqlite stays without it.
import * as path from 'node:path';
import type { GsdStore } from '../files/gsd-store';
import { attachHookState } from '../hooks/engine/attach-hook-state';
import { readGsd2Database, type Gsd2UnavailableCause, type ReadGsd2DatabaseOptions } from '../gsd2-database/read-gsd2-database';
import { workflowPreferences } from '../gsd2-database/workflow-preferences';
import { preferencesFile, type ProjectFiles } from '../state/project-files';
import type { GSDState } from '../model/types';
import { parsePreferences } from '../parse/preferences';
import type { ProjectLocation } from '../state/derive-state';
import { attachReviewHistory } from '../state/review-history';
import { MarkdownSource, type MarkdownReading } from './markdown-source';
import type { StateSource, StateSourceInfo } from './state-source';

/** Why the markdown is read instead, in a few words for the label (the diagnostic has the detail). */
const FALLBACK_WORDS: Record<Gsd2UnavailableCause, string> = {
  'no-database': 'there is no gsd.db',
  'no-node-sqlite': 'this runtime has no node:sqlite',
  'not-gsd-database': 'gsd.db is not a GSD-2 database',
  'unsafe-schema': 'gsd.db holds a view or virtual table where GSD keeps a table',
  'schema-too-new': "gsd.db's schema is newer than this extension knows",
  busy: 'gsd.db stayed locked by GSD',
  unreadable: 'gsd.db cannot be read',
};

export function gsd2DatabaseLabel(schemaVersion: number): string {
  return `GSD-2 database (schema ${schemaVersion})`;
}

export class Gsd2DatabaseSource implements StateSource {
  private readonly markdown: MarkdownSource;
  private current: GSDState | null = null;
  private fallbackOf: GSDState | null = null;
  info: StateSourceInfo = { kind: 'gsd2-database', projectKind: 'gsd2-database', label: 'GSD-2 database', readOnly: false, fallback: null };
  /** Why the last read fell back to the markdown (null when the database was read). */
  fallbackCause: Gsd2UnavailableCause | null = null;

  constructor(
    private readonly project: ProjectLocation,
    store: GsdStore,
    private readonly reading: MarkdownReading,
    private readonly readOptions: ReadGsd2DatabaseOptions = {},
  ) {
    this.markdown = new MarkdownSource(project, store, reading);
  }

  get files(): ProjectFiles {
    return this.markdown.files;
  }

  state(): GSDState {
    if (this.current && (this.fallbackOf === null || this.fallbackOf === this.markdown.state())) return this.current;
    // The CLI's lazy read reads task rows only where the derivation needs them (state --full: all).
    const tasks = this.reading === 'lazy' ? 'needed' : 'all';
    const read = readGsd2Database(this.project.gsdDir, { root: this.project.root, tasks, ...this.readOptions });
    if ('state' in read) {
      this.info = { kind: 'gsd2-database', projectKind: 'gsd2-database', label: gsd2DatabaseLabel(read.schemaVersion), readOnly: false, fallback: null };
      this.fallbackOf = null;
      this.fallbackCause = null;
      // Our hooks' state lives in sidecars beside the units' folders (GSD renders the PLAN files).
      attachHookState(read.state, this.files);
      // Our review files are on disk beside the tasks GSD renders: the same history as on markdown.
      attachReviewHistory(read.state, this.files);
      const prefsFile = preferencesFile(this.files, this.project.gsdDir);
      read.state.workflowPreferences = workflowPreferences(prefsFile ? this.files.parse(prefsFile, parsePreferences).value?.data : undefined);
      this.current = read.state;
      return read.state;
    }
    this.fallbackCause = read.cause;
    const words = FALLBACK_WORDS[read.cause];
    this.info = { kind: 'markdown', projectKind: 'gsd2-database', label: `markdown — fallback: ${words}`, readOnly: false, fallback: read.unavailable };
    const md = this.markdown.state();
    const dbFile = path.join(this.project.gsdDir, 'gsd.db');
    // One line: why the database was not read, and that the markdown stands in for it.
    const line = { file: read.diagnostics[0]?.file ?? dbFile, severity: read.diagnostics[0]?.severity ?? ('warning' as const), message: `${read.unavailable}; the state is read from the markdown instead` };
    this.fallbackOf = md;
    this.current = { ...md, diagnostics: [line, ...md.diagnostics] };
    return this.current;
  }

  changed(paths: readonly string[]): boolean {
    const markdown = this.markdown.changed(paths);
    // GSD writes the database, its WAL, the event log and the markdown it renders; any of them
    // under `.gsd` may mean new rows.
    const inside = paths.some((p) => {
      const rel = path.relative(this.project.gsdDir, p);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
    if (inside) this.current = null;
    return inside || markdown;
  }

  reset(): void {
    this.markdown.reset();
    this.current = null;
    this.fallbackOf = null;
  }
}
