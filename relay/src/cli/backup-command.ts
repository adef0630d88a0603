// `npm run admin -- backup DIR` (relay/src/db/backup-data-directory.ts). A relative DIR is taken from
// the directory the command was typed in, as DATA_DIR is.
import path from 'node:path';
import { backupDataDirectory } from '../db/backup-data-directory.js';
import type { AdminCommand } from '../foundation/admin-command.js';

export const backupCommands: Record<string, AdminCommand> = {
  backup: {
    usage: 'backup DIR',
    describe: 'Copy the running relay\'s SQLite database and DATA_DIR files into DIR (a new DATA_DIR)',
    run({ config, args }) {
      const [dir] = args;
      if (dir === undefined) throw new Error('Usage: npm run admin -- backup DIR');
      return backupDataDirectory(config, path.resolve(config.invocationDir, dir));
    },
  },
};
