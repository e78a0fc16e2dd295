// userHome() must answer what os.homedir() answers (it only avoids loading node:os): with HOME set,
// set but empty, and unset (then the system's account database decides).
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { userHome } from '../../src/core/files/user-home';

describe('userHome', () => {
  const variable = process.platform === 'win32' ? 'USERPROFILE' : 'HOME';
  const saved = process.env[variable];
  afterEach(() => {
    if (saved === undefined) delete process.env[variable];
    else process.env[variable] = saved;
  });

  for (const [what, value] of [['set', '/srv/someone'], ['set but empty', ''], ['unset', undefined]] as const) {
    it(`answers as os.homedir() with ${variable} ${what}`, () => {
      if (value === undefined) delete process.env[variable];
      else process.env[variable] = value;
      assert.equal(userHome(), os.homedir());
    });
  }
});
