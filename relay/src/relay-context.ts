// What every route and plugin of the relay can reach through `app.relay`: config, database and
// the services. Built once by buildApp; closed by the app's onClose hooks.
import type { RelayConfig } from './config/load-config.js';
import type { RelayDatabase } from './db/database.js';
import type { OperatorToken } from './operator/operator-token.js';

export type RelayContext = Readonly<{
  config: RelayConfig;
  database: RelayDatabase;
  operatorToken: OperatorToken;
  installationId: string;
}>;

declare module 'fastify' {
  interface FastifyInstance {
    relay: RelayContext;
  }
}
