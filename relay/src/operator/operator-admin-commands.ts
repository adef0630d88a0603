// Admin CLI twins of /admin/v1/operators and /admin/v1/audit-log. Whoever runs the CLI holds the
// relay's DATA_DIR, so acts as the bootstrap token does; its account changes are audited as such.
import os from 'node:os';
import { AuditLogQuery, OperatorAccountIn } from '@ledgerwire/shared';
import type { AdminCommand, AdminCommandContext } from '../foundation/admin-command.js';
import { AuditLogRepository } from './audit/audit-log-repository.js';
import { auditDetails } from './audit/audit-details.js';
import { OperatorAccountRepository } from './operator-account-repository.js';
import { BOOTSTRAP_ACTOR_ID, OperatorAccountService } from './operator-account-service.js';
import { ensureOperatorToken } from './operator-token.js';

function accountsOf({ config, database }: AdminCommandContext): OperatorAccountService {
  return new OperatorAccountService(new OperatorAccountRepository(database.db), ensureOperatorToken({ dataDir: config.dataDir, envToken: config.adminToken }));
}

function argument(context: AdminCommandContext, index: number, name: string): string {
  const value = context.args[index];
  if (value === undefined || value === '') throw new Error(`Missing <${name}>`);
  return value;
}

/** Records a CLI change in the audit log as the bootstrap actor, from the local machine. */
async function audit(context: AdminCommandContext, action: string, objectId: string, body: unknown = {}): Promise<void> {
  await new AuditLogRepository(context.database.db).append({
    at: new Date().toISOString(),
    actor_id: BOOTSTRAP_ACTOR_ID,
    actor_name: 'admin CLI',
    actor_role: 'admin',
    action,
    object_type: 'operator',
    object_id: objectId,
    status: 200,
    ip: 'local',
    user_agent: `ledgerwire-admin (${os.userInfo().username})`,
    request_id: 'cli',
    details: JSON.stringify(auditDetails({}, body)),
  });
}

export const operatorAdminCommands: Record<string, AdminCommand> = {
  'operator-create': {
    usage: 'operator-create <name> --role viewer|support|admin',
    describe: 'Create a named operator account; prints its token once',
    async run(context) {
      const input = OperatorAccountIn.safeParse({ name: argument(context, 0, 'name'), role: context.options['role'] });
      if (!input.success) throw new Error('operator-create needs <name> (1–100 characters) and --role viewer|support|admin');
      const created = await accountsOf(context).create(input.data, BOOTSTRAP_ACTOR_ID);
      await audit(context, 'operator.create', created.operator.id, input.data);
      return created;
    },
  },
  'operator-list': {
    usage: 'operator-list',
    describe: 'List operator accounts and their roles (never their tokens)',
    run: (context) => accountsOf(context).list(),
  },
  'operator-rotate-token': {
    usage: 'operator-rotate-token <operator_id>',
    describe: 'Give an operator account a new token (printed once); the old one is refused at once',
    async run(context) {
      const rotated = await accountsOf(context).rotateToken(argument(context, 0, 'operator_id'));
      await audit(context, 'operator.rotate_token', rotated.operator.id);
      return rotated;
    },
  },
  'operator-revoke': {
    usage: 'operator-revoke <operator_id>',
    describe: 'Revoke an operator account: its token is refused at once on every relay',
    async run(context) {
      const revoked = await accountsOf(context).revoke(argument(context, 0, 'operator_id'));
      await audit(context, 'operator.revoke', revoked.id);
      return revoked;
    },
  },
  'audit-log': {
    usage: 'audit-log [--actor id] [--object-type t] [--object-id id] [--action a] [--since iso] [--until iso] [--limit n] [--before-id n]',
    describe: 'Read the operator audit log, newest first',
    async run(context) {
      const o = context.options;
      const query = AuditLogQuery.safeParse({
        actor: o['actor'],
        object_type: o['object-type'],
        object_id: o['object-id'],
        action: o['action'],
        since: o['since'],
        until: o['until'],
        limit: o['limit'],
        before_id: o['before-id'],
      });
      if (!query.success) throw new Error(`audit-log: ${query.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      const page = await new AuditLogRepository(context.database.db).list(query.data);
      return { entries: page.entries, next_before_id: page.nextBeforeId };
    },
  },
};
