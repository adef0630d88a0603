// The operator CLI commands use the same service as /admin/v1/operators: a token made from the shell
// works over HTTP, a revocation from the shell is refused over HTTP at once, and both are audited.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AdminCommandContext } from '../../src/foundation/admin-command.js';
import { adminCommands } from '../../src/cli/admin-commands.js';
import { runAdminCommand } from '../../src/cli/run-admin-command.js';
import { startBridgeRelay } from '../bridge/bridge-test-kit.js';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';

describeOnDatabases('operator admin CLI', (kind) => {
  let relay: TestRelay;
  const run = (name: string, args: string[] = [], options: Record<string, string> = {}): Promise<any> => {
    const command = adminCommands[name];
    if (!command) throw new Error(`no command ${name}`);
    const context: AdminCommandContext = { config: relay.config, database: relay.app.database, args, options };
    return runAdminCommand(command, context) as Promise<any>;
  };
  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
  });
  afterAll(() => relay.close());

  it('creates, lists, rotates and revokes an account and reads the audit log', async () => {
    const created = await run('operator-create', ['Shell Support'], { role: 'support' });
    expect(created.operator).toMatchObject({ name: 'Shell Support', role: 'support', created_by: 'bootstrap' });
    const { body: who } = await call(relay.app, 'GET', '/admin/v1/whoami', 200, { token: created.token });
    expect(who.operator).toMatchObject({ id: created.operator.id, role: 'support' });
    await expect(run('operator-create', ['No Role'])).rejects.toThrow(/--role/);
    await expect(run('operator-create', ['Bad Role'], { role: 'owner' })).rejects.toThrow(/--role/);
    expect((await run('operator-list')).map((o: any) => o.id)).toEqual([created.operator.id]);

    const rotated = await run('operator-rotate-token', [created.operator.id]);
    await call(relay.app, 'GET', '/admin/v1/whoami', 401, { token: created.token });
    await call(relay.app, 'GET', '/admin/v1/whoami', 200, { token: rotated.token });
    await run('operator-revoke', [created.operator.id]);
    await call(relay.app, 'GET', '/admin/v1/whoami', 401, { token: rotated.token });
    await expect(run('operator-revoke', ['opr_nobody'])).rejects.toThrow(/No such operator account/);

    const log = await run('audit-log', [], { 'object-id': created.operator.id });
    expect(log.entries.map((e: any) => [e.action, e.actor_id, e.actor_name, e.ip, e.source, e.status])).toEqual([
      ['operator.revoke', 'bootstrap', 'admin CLI', 'local', 'cli', 200],
      ['operator.rotate_token', 'bootstrap', 'admin CLI', 'local', 'cli', 200],
      ['operator.create', 'bootstrap', 'admin CLI', 'local', 'cli', 200],
    ]);
    // A refused command is recorded too, with the status the operator API would have answered.
    const refused = await run('audit-log', [], { action: 'operator.revoke', 'object-id': 'opr_nobody' });
    expect(refused.entries.map((e: any) => [e.status, e.outcome, e.source])).toEqual([[404, 'failed', 'cli']]);
    await expect(run('audit-log', [], { since: 'last week' })).rejects.toThrow(/since/);
  });
});
