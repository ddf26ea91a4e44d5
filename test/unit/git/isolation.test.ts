import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { GLOBAL_CONFIG_TEXT, gitHome, isolatedEnv } from '../../../src/git/index.js';

describe('src/git: the isolated environment', () => {
  const inherited = {
    PATH: '/usr/bin',
    HOME: '/home/op',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'url.x.insteadOf',
    GIT_CONFIG_VALUE_0: 'y',
    GIT_CONFIG_PARAMETERS: "'a.b'='c'",
    GIT_CONFIG: '/etc/op',
    GIT_DIR: '/elsewhere/.git',
    GIT_WORK_TREE: '/elsewhere',
    GIT_INDEX_FILE: '/elsewhere/index',
    GIT_OBJECT_DIRECTORY: '/elsewhere/objects',
    GIT_ALTERNATE_OBJECT_DIRECTORIES: '/elsewhere/alt',
    GIT_COMMON_DIR: '/elsewhere/common',
    GIT_CEILING_DIRECTORIES: '/',
    GIT_TEMPLATE_DIR: '/op/template',
    GIT_EXTERNAL_DIFF: 'op-diff',
    GIT_SSH_COMMAND: 'ssh -i key',
  };

  it('drops config injection and routing variables, keeps transport settings', () => {
    const env = isolatedEnv(inherited);
    for (const key of Object.keys(inherited)) {
      if (['PATH', 'HOME', 'GIT_SSH_COMMAND'].includes(key)) continue;
      if (key === 'GIT_CONFIG_COUNT') continue;
      expect(env, key).not.to.have.property(key);
    }
    expect(env).not.to.have.property('GIT_CONFIG_COUNT');
    expect(env).to.include({ PATH: '/usr/bin', HOME: '/home/op', GIT_SSH_COMMAND: 'ssh -i key' });
  });

  it('points at evalrig-owned global config, no system config, no prompts, C locale, fixed identity', () => {
    const env = isolatedEnv(inherited);
    expect(env).to.include({
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: gitHome().globalConfig,
      GIT_TERMINAL_PROMPT: '0',
      LC_ALL: 'C',
      GIT_AUTHOR_NAME: 'evalrig',
      GIT_AUTHOR_EMAIL: 'evalrig@localhost',
      GIT_COMMITTER_NAME: 'evalrig',
      GIT_COMMITTER_EMAIL: 'evalrig@localhost',
    });
  });

  it('lets the caller set a scratch index explicitly', () => {
    expect(isolatedEnv(inherited, { GIT_INDEX_FILE: '/tmp/scratch' })).to.include({
      GIT_INDEX_FILE: '/tmp/scratch',
    });
  });

  it('writes a global config that only trusts every directory', () => {
    expect(GLOBAL_CONFIG_TEXT).to.equal('[safe]\n\tdirectory = *\n');
    expect(readFileSync(gitHome().globalConfig, 'utf8')).to.equal(GLOBAL_CONFIG_TEXT);
  });
});
