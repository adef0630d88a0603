// The admin CLI's commands. Each calls the same services as the operator API; service issues add
// their commands to this registry (one file per area, merged here).
import { migrateToLatest } from '../db/migrate.js';
import { ensureInstallationId } from '../operator/store/installation.js';
import { rotateOperatorToken } from '../operator/services/operator-token.js';
import { RELAY_VERSION } from '../version.js';
import type { AdminCommand } from '../foundation/admin-command.js';
import { backupCommands } from './backup-command.js';
import { bridgeAdminCommands } from '../bridge/admin/bridge-admin-commands.js';
import { webhookAdminCommands } from '../webhooks/admin/webhook-admin-commands.js';
import { messagingAdminCommands } from '../messaging/admin/messaging-admin-commands.js';
import { operatorAdminCommands } from '../operator/admin/operator-admin-commands.js';

export const adminCommands: Record<string, AdminCommand> = {
  whoami: {
    usage: 'whoami',
    describe: 'Show this relay installation: id, version, database',
    async run({ config, database }) {
      return {
        installation_id: await ensureInstallationId(database.db),
        version: RELAY_VERSION,
        database: database.capabilities.dialect,
        data_dir: config.dataDir,
        console_url: `${config.publicUrl}/console`,
      };
    },
  },
  migrate: {
    usage: 'migrate',
    describe: 'Apply pending database migrations (the relay also does this at start)',
    async run({ database }) {
      const results = await migrateToLatest(database.db, database.capabilities);
      return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName) };
    },
  },
  'rotate-operator-token': {
    usage: 'rotate-operator-token',
    describe: 'Replace the generated operator token in DATA_DIR and print the new one once',
    run({ config }) {
      if (config.adminToken !== undefined) {
        throw new Error('RELAY_ADMIN_TOKEN is set: change the variable instead of rotating the stored token');
      }
      return Promise.resolve({ operator_token: rotateOperatorToken(config.dataDir) });
    },
    audit: { action: 'operator.rotate_bootstrap_token', objectType: 'operator', objectId: { result: [] } },
  },
  ...bridgeAdminCommands,
  ...webhookAdminCommands,
  ...messagingAdminCommands,
  ...backupCommands,
  ...operatorAdminCommands,
};
