import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { humanDate, msUntilAgeChanges, timeAgo } from '../../src/vscode/dispatch/unit-age';

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
  it('each locale and kind of date keeps its own wording (the formatters are kept per locale)', () => {
    assert.equal(humanDate('2026-03-02', 'en-US'), 'Mar 2, 2026');
    assert.equal(humanDate('2026-03-02', 'de'), '02.03.2026');
    assert.equal(humanDate('2026-03-02', 'en-US'), 'Mar 2, 2026');
    // A time of day only where the text has one; the date-only format is not reused for it.
    assert.match(humanDate('2026-03-02T09:30:00', 'en-US'), /^Mar 2, 2026, 9:30\sAM$/);
    assert.equal(timeAgo('2026-11-25T13:57:00Z', now, 'de'), 'vor 3 Minuten');
    assert.equal(timeAgo('2026-11-25T13:57:00Z', now, 'en'), '3 minutes ago');
  });
  it('says when the age\'s words change next: the same words until then, new ones from then (87 s after a dispatch is "1 minute ago")', () => {
    const at = '2026-11-25T14:00:00.000Z';
    const t0 = Date.parse(at);
    assert.equal(timeAgo(at, t0 + 87_000, 'en'), '1 minute ago');
    assert.equal(msUntilAgeChanges(at, t0), 59_500);
    assert.equal(msUntilAgeChanges(at, t0 + 87_000), 32_500);
    // Under a year (after it, days go on counting "1 year ago", a tick a day that changes nothing).
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 364 * 86_400_000 }), (elapsed) => {
        const now = t0 + elapsed;
        const wait = msUntilAgeChanges(at, now);
        assert.ok(wait > 0 && wait <= 86_400_000, String(wait));
        assert.equal(timeAgo(at, now + wait - 1, 'en'), timeAgo(at, now, 'en'), `unchanged until ${wait} ms after ${elapsed} ms`);
        assert.notEqual(timeAgo(at, now + wait, 'en'), timeAgo(at, now, 'en'), `changed ${wait} ms after ${elapsed} ms`);
      }),
      { numRuns: 2000 },
    );
  });
});
