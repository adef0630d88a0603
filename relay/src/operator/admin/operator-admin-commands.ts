// Admin CLI twins of /admin/v1/operators and /admin/v1/audit-log. Whoever runs the CLI holds the
// relay's DATA_DIR, so acts as the bootstrap token does; its account changes are audited as such
// (source "cli", written by the CLI around each command: audit/cli-audit.ts).
import { AuditLogQuery, OperatorAccountIn } from '@ledgerwire/shared';
import type { AdminCommand, AdminCommandContext } from '../../foundation/admin-command.js';
import { AuditLogRepository } from '../store/audit-log-repository.js';
import { OperatorAccountRepository } from '../store/operator-account-repository.js';
import { BOOTSTRAP_ACTOR_ID, OperatorAccountService } from '../services/operator-account-service.js';
import { ensureOperatorToken } from '../services/operator-token.js';

function accountsOf({ config, database }: AdminCommandContext): OperatorAccountService {
  return new OperatorAccountService(new OperatorAccountRepository(database.db), ensureOperatorToken({ dataDir: config.dataDir, envToken: config.adminToken }));
}

function argument(context: AdminCommandContext, index: number, name: string): string {
  const value = context.args[index];
  if (value === undefined || value === '') throw new Error(`Missing <${name}>`);
  return value;
}

export const operatorAdminCommands: Record<string, AdminCommand> = {
  'operator-create': {
    usage: 'operator-create <name> --role viewer|support|admin',
    describe: 'Create a named operator account; prints its token once',
    async run(context) {
      const input = OperatorAccountIn.safeParse({ name: argument(context, 0, 'name'), role: context.options['role'] });
      if (!input.success) throw new Error('operator-create needs <name> (1–100 characters) and --role viewer|support|admin');
      return accountsOf(context).create(input.data, BOOTSTRAP_ACTOR_ID);
    },
    audit: { action: 'operator.create', objectType: 'operator', objectId: { result: ['operator.id'] } },
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
      return accountsOf(context).rotateToken(argument(context, 0, 'operator_id'));
    },
    audit: { action: 'operator.rotate_token', objectType: 'operator', objectId: { arg: 0 } },
  },
  'operator-revoke': {
    usage: 'operator-revoke <operator_id>',
    describe: 'Revoke an operator account: its token is refused at once on every relay',
    async run(context) {
      return accountsOf(context).revoke(argument(context, 0, 'operator_id'));
    },
    audit: { action: 'operator.revoke', objectType: 'operator', objectId: { arg: 0 } },
  },
  'audit-log': {
    usage: 'audit-log [--actor id] [--object-type t] [--object-id id] [--action a] [--source api|cli] [--since iso] [--until iso] [--limit n] [--before-id n]',
    describe: 'Read the operator audit log, newest first',
    async run(context) {
      const o = context.options;
      const query = AuditLogQuery.safeParse({
        actor: o['actor'],
        object_type: o['object-type'],
        object_id: o['object-id'],
        action: o['action'],
        source: o['source'],
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
