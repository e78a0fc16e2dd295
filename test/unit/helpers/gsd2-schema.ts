// GSD-2's schema 29, as the tests and the benchmark build databases from it. Facts from
// gsd-build/gsd-2 at 76568edc (src/resources/extensions/gsd/db-base-schema.ts, db-migration-steps.ts,
// `SCHEMA_VERSION = 29` in gsd-db.ts). Its own file so the benchmark can use it without the test
// helpers' sample trees.

/** Schema 29 DDL for the tables the state derivation reads (column names, types and defaults as GSD-2 has them). */
export const SCHEMA_29 = `
CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL);
CREATE TABLE decisions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, when_context TEXT NOT NULL DEFAULT '',
  scope TEXT NOT NULL DEFAULT '', decision TEXT NOT NULL DEFAULT '', choice TEXT NOT NULL DEFAULT '', rationale TEXT NOT NULL DEFAULT '',
  revisable TEXT NOT NULL DEFAULT '', made_by TEXT NOT NULL DEFAULT 'agent', source TEXT NOT NULL DEFAULT 'discussion', superseded_by TEXT DEFAULT NULL);
CREATE TABLE requirements (id TEXT PRIMARY KEY, class TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  why TEXT NOT NULL DEFAULT '', source TEXT NOT NULL DEFAULT '', primary_owner TEXT NOT NULL DEFAULT '', supporting_slices TEXT NOT NULL DEFAULT '',
  validation TEXT NOT NULL DEFAULT '', notes TEXT NOT NULL DEFAULT '', full_content TEXT NOT NULL DEFAULT '', superseded_by TEXT DEFAULT NULL);
CREATE TABLE artifacts (path TEXT PRIMARY KEY, artifact_type TEXT NOT NULL DEFAULT '', milestone_id TEXT DEFAULT NULL, slice_id TEXT DEFAULT NULL,
  task_id TEXT DEFAULT NULL, full_content TEXT NOT NULL DEFAULT '', imported_at TEXT NOT NULL DEFAULT '', content_hash TEXT DEFAULT NULL);
CREATE TABLE milestones (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'active',
  depends_on TEXT NOT NULL DEFAULT '[]', created_at TEXT NOT NULL DEFAULT '', completed_at TEXT DEFAULT NULL, vision TEXT NOT NULL DEFAULT '',
  success_criteria TEXT NOT NULL DEFAULT '[]', key_risks TEXT NOT NULL DEFAULT '[]', proof_strategy TEXT NOT NULL DEFAULT '[]',
  verification_contract TEXT NOT NULL DEFAULT '', verification_integration TEXT NOT NULL DEFAULT '', verification_operational TEXT NOT NULL DEFAULT '',
  verification_uat TEXT NOT NULL DEFAULT '', definition_of_done TEXT NOT NULL DEFAULT '[]', requirement_coverage TEXT NOT NULL DEFAULT '',
  boundary_map_markdown TEXT NOT NULL DEFAULT '', sequence INTEGER DEFAULT 0);
CREATE TABLE slices (milestone_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'pending',
  risk TEXT NOT NULL DEFAULT 'medium', depends TEXT NOT NULL DEFAULT '[]', demo TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT '',
  completed_at TEXT DEFAULT NULL, full_summary_md TEXT NOT NULL DEFAULT '', full_uat_md TEXT NOT NULL DEFAULT '', goal TEXT NOT NULL DEFAULT '',
  success_criteria TEXT NOT NULL DEFAULT '', proof_level TEXT NOT NULL DEFAULT '', integration_closure TEXT NOT NULL DEFAULT '',
  observability_impact TEXT NOT NULL DEFAULT '', target_repositories TEXT NOT NULL DEFAULT '[]', sequence INTEGER DEFAULT 0,
  replan_triggered_at TEXT DEFAULT NULL, is_sketch INTEGER NOT NULL DEFAULT 0, sketch_scope TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (milestone_id, id), FOREIGN KEY (milestone_id) REFERENCES milestones(id));
CREATE TABLE tasks (milestone_id TEXT NOT NULL, slice_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending', one_liner TEXT NOT NULL DEFAULT '', narrative TEXT NOT NULL DEFAULT '',
  verification_result TEXT NOT NULL DEFAULT '', duration TEXT NOT NULL DEFAULT '', completed_at TEXT DEFAULT NULL,
  blocker_discovered INTEGER DEFAULT 0, blocker_source TEXT NOT NULL DEFAULT '', escalation_pending INTEGER NOT NULL DEFAULT 0,
  escalation_awaiting_review INTEGER NOT NULL DEFAULT 0, escalation_artifact_path TEXT DEFAULT NULL, escalation_override_applied_at TEXT DEFAULT NULL,
  deviations TEXT NOT NULL DEFAULT '', known_issues TEXT NOT NULL DEFAULT '', key_files TEXT NOT NULL DEFAULT '[]',
  key_decisions TEXT NOT NULL DEFAULT '[]', full_summary_md TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  estimate TEXT NOT NULL DEFAULT '', files TEXT NOT NULL DEFAULT '[]', verify TEXT NOT NULL DEFAULT '', inputs TEXT NOT NULL DEFAULT '[]',
  expected_output TEXT NOT NULL DEFAULT '[]', observability_impact TEXT NOT NULL DEFAULT '', full_plan_md TEXT NOT NULL DEFAULT '',
  target_repositories TEXT NOT NULL DEFAULT '[]', sequence INTEGER DEFAULT 0,
  PRIMARY KEY (milestone_id, slice_id, id), FOREIGN KEY (milestone_id, slice_id) REFERENCES slices(milestone_id, id));
CREATE TABLE replan_history (id INTEGER PRIMARY KEY AUTOINCREMENT, milestone_id TEXT NOT NULL DEFAULT '', slice_id TEXT DEFAULT NULL,
  task_id TEXT DEFAULT NULL, summary TEXT NOT NULL DEFAULT '', previous_artifact_path TEXT DEFAULT NULL, replacement_artifact_path TEXT DEFAULT NULL,
  created_at TEXT NOT NULL DEFAULT '', FOREIGN KEY (milestone_id) REFERENCES milestones(id));
CREATE TABLE assessments (path TEXT PRIMARY KEY, milestone_id TEXT NOT NULL DEFAULT '', slice_id TEXT DEFAULT NULL, task_id TEXT DEFAULT NULL,
  status TEXT NOT NULL DEFAULT '', scope TEXT NOT NULL DEFAULT '', full_content TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT '',
  FOREIGN KEY (milestone_id) REFERENCES milestones(id));
CREATE TABLE quality_gates (milestone_id TEXT NOT NULL, slice_id TEXT NOT NULL, gate_id TEXT NOT NULL, scope TEXT NOT NULL DEFAULT 'slice',
  task_id TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'pending', verdict TEXT NOT NULL DEFAULT '', rationale TEXT NOT NULL DEFAULT '',
  findings TEXT NOT NULL DEFAULT '', evaluated_at TEXT DEFAULT NULL, PRIMARY KEY (milestone_id, slice_id, gate_id, task_id),
  FOREIGN KEY (milestone_id, slice_id) REFERENCES slices(milestone_id, id));
CREATE TABLE slice_dependencies (milestone_id TEXT NOT NULL, slice_id TEXT NOT NULL, depends_on_slice_id TEXT NOT NULL,
  PRIMARY KEY (milestone_id, slice_id, depends_on_slice_id), FOREIGN KEY (milestone_id, slice_id) REFERENCES slices(milestone_id, id),
  FOREIGN KEY (milestone_id, depends_on_slice_id) REFERENCES slices(milestone_id, id));
CREATE INDEX idx_tasks_active ON tasks(milestone_id, slice_id, status);
CREATE INDEX idx_slices_active ON slices(milestone_id, status);
CREATE INDEX idx_quality_gates_pending ON quality_gates(milestone_id, slice_id, status);
CREATE UNIQUE INDEX idx_replan_history_unique ON replan_history(milestone_id, slice_id, task_id) WHERE slice_id IS NOT NULL AND task_id IS NOT NULL;
`;
