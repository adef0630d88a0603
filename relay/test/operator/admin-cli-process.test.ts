// The admin CLI as a shell user meets it, in real child processes: stdout is the JSON answer and nothing
// else (so `npm run -s admin -- … | jq` works), errors go to stderr once, commands that change something
// land in the audit log with source "cli", and `npm run admin` without -s says how to pipe it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@ledgerwire/test-kit';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const launcher = path.join(repositoryRoot, 'relay/src/cli/admin-launcher.mjs');

/** The environment of a shell user: none of the npm_* variables of the npm that started the tests. */
function shellEnv(dataDir: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
}

/** stdout and stderr are pipes, as in `… | jq`: not a terminal. */
async function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const { code, stdout, stderr } = await runCli(command, { args, env, replaceEnv: true, cwd: repositoryRoot });
  return { code, stdout, stderr };
}

describe('admin CLI in a child process', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const admin = (...args: string[]) => run(launcher, args, env);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-admin-cli-'));
    env = shellEnv(dataDir);
    // The first run may bundle the CLI (admin-launcher.mjs); later ones reuse it.
    expect((await admin('whoami')).code).toBe(0);
  }, 120_000);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('prints the answer alone on stdout, as one line of JSON when piped, and nothing on stderr', async () => {
    const created = await admin('bridge-create-application', 'Piped Billing');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(created.stdout)).toMatchObject({ id: expect.stringMatching(/^app_/), name: 'Piped Billing' });
    // --json is a flag: it takes no value, even when a word follows it.
    const listed = await admin('--json', 'bridge-list-applications');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ name: 'Piped Billing' })]);
  });

  it('prints an error once, on stderr, in words; stdout stays empty; exit code 1', async () => {
    const missing = await admin('bridge-revoke-key', 'lwk_test_nobody');
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'admin: No API key lwk_test_nobody\n' });
    const invalid = await admin('bridge-create-key', 'app_x', '--environment', 'prod');
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toBe('');
    expect(invalid.stderr).toBe('admin: Invalid input\n  --environment: Invalid option: expected one of "test"|"live"\n');
    const unknown = await admin('bridge-make-coffee');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr.match(/unknown command/g)).toHaveLength(1);
  });

  it('records what it changed in the audit log with source cli, refusals included, and never a secret', async () => {
    const { stdout } = await admin('bridge-create-application', 'Audited Billing');
    const application = JSON.parse(stdout) as { id: string };
    const key = JSON.parse((await admin('bridge-create-key', application.id, '--environment', 'test')).stdout) as { key_id: string; secret: string };
    await admin('bridge-revoke-key', key.key_id);
    await admin('bridge-revoke-key', 'lwk_test_nobody');
    const log = await admin('audit-log', '--source', 'cli', '--limit', '4');
    expect(log.code).toBe(0);
    const entries = (JSON.parse(log.stdout) as { entries: Record<string, unknown>[] }).entries;
    expect(entries.map((e) => [e['action'], e['object_id'], e['status'], e['source'], e['actor_name']])).toEqual([
      ['api_key.revoke', 'lwk_test_nobody', 404, 'cli', 'admin CLI'],
      ['api_key.revoke', key.key_id, 200, 'cli', 'admin CLI'],
      ['api_key.create', key.key_id, 200, 'cli', 'admin CLI'],
      ['application.create', application.id, 200, 'cli', 'admin CLI'],
    ]);
    expect(entries[2]?.['details']).toEqual({ params: { args: [application.id] }, body: { environment: 'test' } });
    expect(log.stdout).not.toContain(key.secret);
  });

  it('through npm: -s gives JSON alone; without it the banner is npm\'s, and the CLI says to use -s', async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const silent = await run(npm, ['run', '-s', 'admin', '--', 'whoami'], env);
    expect(silent.code).toBe(0);
    expect(JSON.parse(silent.stdout)).toMatchObject({ database: 'sqlite', data_dir: dataDir });
    const noisy = await run(npm, ['run', 'admin', '--', 'whoami'], env);
    expect(noisy.code).toBe(0);
    expect(noisy.stdout).toContain('> admin');
    expect(noisy.stderr).toContain('run "npm run -s admin -- …" when piping');
  }, 60_000);
});
