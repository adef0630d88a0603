// The database module: opens SQLite or PostgreSQL from the config, brings the schema to the latest
// migration before any other module reads it, puts it on the app as `app.database`, and closes it
// last (onClose runs after every module's preClose has stopped its loops).
import fp from 'fastify-plugin';
import { openDatabase, type RelayDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: RelayDatabase;
  }
}

export const databasePlugin = fp(
  async (app) => {
    const database = openDatabase(app.config.database, {
      onBackgroundError: (error) => app.log.warn({ err: error }, 'the SQLite checkpoint thread failed: SQLite checkpoints on its own connection again'),
    });
    app.addHook('onClose', () => database.destroy());
    await migrateToLatest(database.db, database.capabilities);
    app.decorate('database', database);
  },
  { name: 'ledgerwire-database', fastify: '5.x', dependencies: ['ledgerwire-config'] },
);
