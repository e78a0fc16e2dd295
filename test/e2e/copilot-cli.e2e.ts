// The review loop run end to end by the real Copilot CLI (headless, offline, the scripted model as
// its bring-your-own-model provider).
import { copilotCli } from './hosts/drivers';
import { defineScenarios } from './scenarios/scenarios';

const driver = copilotCli();

describe(`${driver.title} (real host, scripted model on 127.0.0.1)`, function () {
  before(async function () {
    this.timeout(15 * 60_000);
    await driver.install();
  });
  defineScenarios(driver, {
    pending: {
      'untrusted folder: the reviewer guard still holds (Stop hands the review to gsd-reviewer)':
        'Copilot CLI defers every repository hook (.github/hooks and the agent file\'s) until the folder is trusted, so in an untrusted folder no Stop hands a review to gsd-reviewer and there is no review to guard; the terminal-dispatch scenario below covers the untrusted case here',
    },
  });
});
