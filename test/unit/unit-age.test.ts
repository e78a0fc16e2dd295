import * as assert from 'node:assert/strict';
import { humanDate, timeAgo } from '../../src/vscode/dispatch/unit-age';

describe('unit age and dates as people read them', () => {
  const now = Date.parse('2026-11-25T14:00:00Z');
  it('says how long ago, in the largest whole unit', () => {
    assert.equal(timeAgo('2026-11-25T13:59:40Z', now, 'en'), 'now');
    assert.equal(timeAgo('2026-11-25T13:57:00Z', now, 'en'), '3 minutes ago');
    assert.equal(timeAgo('2026-11-25T11:00:00Z', now, 'en'), '3 hours ago');
    assert.equal(timeAgo('2026-11-24T14:00:00Z', now, 'en'), 'yesterday');
    assert.equal(timeAgo('2026-11-25T13:57:00Z', now, 'de'), 'vor 3 Minuten');
  });
  it('a date without the ISO look; a text that is no date stays as it is', () => {
    assert.equal(humanDate('2026-03-02', 'en-US'), 'Mar 2, 2026');
    assert.doesNotMatch(humanDate('2026-03-02T09:30:00Z', 'en-US'), /T09|Z$/);
    assert.equal(humanDate('last week', 'en'), 'last week');
  });
});
