// What every route and plugin of the relay can reach through `app.relay`: config, database and
// the services. Built once by buildApp; closed by the app's onClose hooks.
import type { RelayConfig } from './config/load-config.js';
import type { RelayDatabase } from './db/database.js';
import type { OperatorToken } from './operator/operator-token.js';
import type { BackgroundLoop } from './background/background-loop.js';
import type { WebhookService } from './webhooks/webhook-service.js';
import type { MessagingModule } from './messaging/messaging-module.js';
import type { BridgeServices } from './bridge/bridge-services.js';

export type RelayContext = Readonly<{
  config: RelayConfig;
  database: RelayDatabase;
  operatorToken: OperatorToken;
  installationId: string;
  /** The one webhook delivery engine (messaging status webhooks, bridge presence webhooks). */
  webhooks: WebhookService;
  webhookDeliveryLoop: BackgroundLoop;
  /** The transactional messaging service (relay/src/messaging). */
  messaging: MessagingModule;
  /** The accounting bridge API's services, the job queue and pulled-data store the gateway uses (relay/src/bridge). */
  bridge: BridgeServices;
}>;

declare module 'fastify' {
  interface FastifyInstance {
    relay: RelayContext;
  }
}
