/** The test hosts' installer hands a nested `npm ci` none of an outer npm run's environment. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { installEnvironment } from '../launcher/install';

describe('host install: the environment of nested installs', function () {
  it('drops npm_* variables (the user agent naming the outer Node among them), INIT_CWD and NODE', function () {
    const outer = {
      HOME: '/root',
      LANG: 'C.UTF-8',
      npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
      npm_lifecycle_event: 'test',
      npm_package_name: 'agent-fs',
      NPM_CONFIG_CACHE: '/root/.npm',
      npm_node_execpath: '/usr/local/bin/node',
      INIT_CWD: '/work/main',
      NODE: '/usr/local/bin/node',
      PATH: [
        '/work/main/node_modules/.bin',
        '/work/node_modules/.bin',
        '/usr/local/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
        '/usr/local/bin',
        '/usr/bin',
      ].join(path.delimiter),
    };
    assert.deepEqual(installEnvironment(outer), {
      HOME: '/root',
      LANG: 'C.UTF-8',
      PATH: ['/usr/local/bin', '/usr/bin'].join(path.delimiter),
    });
  });

  it('keeps a plain environment as it is', function () {
    const plain = { HOME: '/root', PATH: ['/opt/tools/bin', '/usr/bin'].join(path.delimiter), NODE_OPTIONS: '--max-old-space-size=4096' };
    assert.deepEqual(installEnvironment(plain), plain);
  });
});
