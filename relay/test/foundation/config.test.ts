import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';

function problemOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('runs with zero configuration on embedded SQLite under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('data', 'relay.sqlite') });
    expect(config.logLevel).toBe('info');
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('takes a relative DATA_DIR from the folder the command was typed in (INIT_CWD, set by npm), an absolute one as given', () => {
    const typedIn = path.resolve('/srv/checkout');
    expect(loadConfig({ DATA_DIR: './data', INIT_CWD: typedIn }).dataDir).toBe(path.join(typedIn, 'data'));
    expect(loadConfig({ INIT_CWD: typedIn }).dataDir).toBe(path.join(typedIn, 'data'));
    expect(loadConfig({ DATA_DIR: path.resolve('/var/lib/ledgerwire'), INIT_CWD: typedIn }).dataDir).toBe(path.resolve('/var/lib/ledgerwire'));
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', PORT: '9090', HOST: '127.0.0.1' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/test', schema: undefined });
    expect(config.port).toBe(9090);
    expect(config.publicUrl).toBe('http://127.0.0.1:9090');
  });

  it('names the variable and the problem in one line', () => {
    const message = problemOf({ PORT: 'abc' });
    expect(message).toBe('Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")');
    expect(message).not.toContain('\n');
    expect(problemOf({ PORT: '70000' })).toContain('PORT must be an integer from 0 to 65535');
    expect(problemOf({ LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL must be one of');
    expect(problemOf({ RELAY_ADMIN_TOKEN: 'short' })).toBe('Invalid configuration: RELAY_ADMIN_TOKEN must be at least 24 characters');
  });

  it('rejects a malformed DATABASE_URL without echoing it (it may hold a password)', () => {
    for (const url of ['mysql://root@localhost/db', 'not a url', 'postgres://']) {
      const message = problemOf({ DATABASE_URL: url });
      expect(message).toBe('Invalid configuration: DATABASE_URL must be a PostgreSQL URL such as postgres://user@host:5432/database');
    }
  });

  it('takes TRUST_PROXY as proxy hops or proxy addresses, never as trust in everyone', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, loopback ,::1' }).trustProxy).toBe('10.0.0.0/8,loopback,::1');
    for (const refused of ['true', '*', '10.0.0.0/8/1', 'proxy.example', '999']) {
      expect(problemOf({ TRUST_PROXY: refused })).toContain('TRUST_PROXY must be a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges');
    }
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).database.kind).toBe('sqlite');
  });
});
