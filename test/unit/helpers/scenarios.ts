// Realistic GSD trees for derive-state tests, one per rule of the default dispatch, plus broken
// input. Each is a map of files; tests write it to a temp folder.
import { codeReview, roadmap, slicePlan, taskSummary, type Tree } from './gsd-tree';

const M = '.gsd/milestones';

export const scenarios: Record<string, Tree> = {
  'no milestones': { '.gsd/PREFERENCES.md': '---\nversion: 1\n---\n' },

  'milestone without roadmap': { [`${M}/M001/M001-CONTEXT.md`]: '# M001: Billing\n\nCharge customers.\n' },

  'draft context only': { [`${M}/M001/M001-CONTEXT-DRAFT.md`]: '# M001: Billing\n' },

  'roadmap without slices': { [`${M}/M001/M001-ROADMAP.md`]: '# M001: Billing\n\n## Slices\n\nTBD\n' },

  'slice without plan': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
  },

  'executing second task': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }, { id: 'S02', title: 'Payments', depends: ['S01'] }]),
    [`${M}/M001/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model', done: true }, { id: 'T02', title: 'PDF' }, { id: 'T03', title: 'Email' }]),
    [`${M}/M001/slices/S01/tasks/T01-PLAN.md`]: '# T01: Model\n',
    [`${M}/M001/slices/S01/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
  },

  'summary counts as done though unchecked': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${M}/M001/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model' }, { id: 'T02', title: 'PDF' }]),
    [`${M}/M001/slices/S01/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
  },

  'all tasks done': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${M}/M001/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model', done: true }, { id: 'T02', title: 'PDF' }]),
    [`${M}/M001/slices/S01/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
    [`${M}/M001/slices/S01/tasks/T02-SUMMARY.md`]: taskSummary('T02', 'S01', 'M001'),
  },

  'blocker without replan': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${M}/M001/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model', done: true }, { id: 'T02', title: 'PDF', done: true }, { id: 'T03', title: 'Email' }]),
    [`${M}/M001/slices/S01/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001'),
    [`${M}/M001/slices/S01/tasks/T02-SUMMARY.md`]: taskSummary('T02', 'S01', 'M001', { blocker: true }),
  },

  'blocker with a replan for another task': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${M}/M001/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model', done: true }, { id: 'T02', title: 'PDF', done: true }, { id: 'T03', title: 'Email' }]),
    [`${M}/M001/slices/S01/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { blocker: true }),
    [`${M}/M001/slices/S01/tasks/T02-SUMMARY.md`]: taskSummary('T02', 'S01', 'M001', { blocker: true }),
    [`${M}/M001/slices/S01/S01-REPLAN.md`]: '# S01 replan\n\n**Blocker Task:** T01\n\nSwitched PDF library.\n',
  },

  'blocker answered by its replan': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${M}/M001/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model', done: true }, { id: 'T02', title: 'PDF' }]),
    [`${M}/M001/slices/S01/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { blocker: true }),
    [`${M}/M001/slices/S01/S01-REPLAN.md`]: '# S01 replan\n\n**Blocker Task:** T01\n',
  },

  'all slices done, not validated': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices', done: true }]),
  },

  'validated, no summary': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices', done: true }]),
    [`${M}/M001/M001-VALIDATION.md`]: '---\nverdict: pass\n---\n# Validation\n',
  },

  'everything complete': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices', done: true }]),
    [`${M}/M001/M001-SUMMARY.md`]: '---\nstatus: complete\n---\n# M001: Billing\n',
  },

  'milestone waits for its dependency': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices', done: true }]),
    [`${M}/M001/M001-SUMMARY.md`]: '---\nstatus: complete\n---\n# M001: Billing\n',
    [`${M}/M002/M002-CONTEXT.md`]: '---\ndepends_on:\n  - M003\n---\n# M002: Reports\n',
    [`${M}/M003/M003-CONTEXT.md`]: '---\ndepends_on:\n  - M002\n---\n# M003: Exports\n',
  },

  'slice dependencies unmet': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices', depends: ['S02'] }, { id: 'S02', title: 'Payments', depends: ['S01'] }]),
  },

  'suffixed milestone id and review history': {
    [`${M}/M001-x7k2pq/M001-x7k2pq-ROADMAP.md`]: roadmap('M001-x7k2pq', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${M}/M001-x7k2pq/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model' }, { id: 'T02', title: 'PDF' }]),
    [`${M}/M001-x7k2pq/slices/S01/tasks/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001-x7k2pq', { pendingActions: ['Cache the template'] }),
    [`${M}/M001-x7k2pq/slices/S01/tasks/T01-CODE-REVIEW-C1.md`]: codeReview('T01', 1, 'changes-requested', [{ text: 'No test for VAT rounding', location: 'src/vat.ts:12' }]),
    [`${M}/M001-x7k2pq/slices/S01/tasks/T01-CODE-REVIEW.md`]: codeReview('T01', 2, 'approved', [{ text: 'No test for VAT rounding', resolved: true }]),
  },

  'broken inputs': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    '.gsd/PREFERENCES.md': '---\ngsd_hooks: [unclosed\n---\n',
    [`${M}/M001/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model' }, { id: 'T02', title: 'PDF' }, { id: 'T03', title: 'Mail' }]),
    [`${M}/M001/slices/S01/tasks/T01-SUMMARY.md`]: '---\nid: T01\ncompleted_at: [broken\n---\n# T01: Model\n\n## Known Issues\n\nPending actions:\n- still read from the body\n',
    [`${M}/M001/slices/S01/tasks/T02-SUMMARY.md`]: '',
    [`${M}/M001/slices/S01/tasks/T01-CODE-REVIEW.md`]: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d, 0x0a]),
    [`${M}/M001/slices/S01/tasks/T03-PLAN.md`]: `---\nid: T03\n---\n${'x'.repeat(5 * 1024 * 1024)}\n`,
    [`${M}/M001/slices/S01/tasks/T09-SUMMARY.md`]: taskSummary('T09', 'S07', 'M001'),
  },

  'summary filed under the wrong task': {
    [`${M}/M001/M001-ROADMAP.md`]: roadmap('M001', 'Billing', [{ id: 'S01', title: 'Invoices' }]),
    [`${M}/M001/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoices', [{ id: 'T01', title: 'Model' }, { id: 'T02', title: 'PDF' }]),
    [`${M}/M001/slices/S01/tasks/T01-SUMMARY.md`]: taskSummary('T02', 'S03', 'M001'),
  },
};
