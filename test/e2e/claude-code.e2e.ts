// The review loop run end to end by the real Claude Code (headless, against the scripted model).
import { claudeCode } from './hosts/drivers';
import { defineScenarios } from './scenarios/scenarios';

const driver = claudeCode();

describe(`${driver.title} (real host, scripted model on 127.0.0.1)`, function () {
  before(async function () {
    this.timeout(15 * 60_000);
    await driver.install();
  });
  defineScenarios(driver);
});
