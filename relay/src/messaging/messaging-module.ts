// Builds the messaging service from the relay's config and database: repositories, services, the
// provider registry and the background loops (dispatch, event processing, counter pruning). The app
// reaches it as `app.messaging` (messaging-plugin.ts); the admin CLI builds its own with workers off.
import type { FastifyBaseLogger } from 'fastify';
import type { RelayConfig } from '../config/load-config.js';
import type { RelayDatabase } from '../db/database.js';
import { createBackgroundLoop, type BackgroundLoop } from '../background/background-loop.js';
import { oldestDueAt } from '../background/oldest-due-row.js';
import { RateLimiter, rateLimiterOptionsFor } from '../limits/rate-limiter.js';
import { ByteBudget } from './services/byte-budget.js';
import { CircuitBreakers } from './workers/dispatch/circuit-breaker.js';
import { DispatchWorker } from './workers/dispatch/dispatch-worker.js';
import { StatusNotifier, type WebhookPublisher } from './services/messages/status-notifier.js';
import { EventIngestService } from './services/events/event-ingest-service.js';
import { EventRepository } from './store/events/event-repository.js';
import { EventRuleService } from './services/events/event-rule-service.js';
import { EventWorker } from './workers/event-worker.js';
import { acceptMessageBatch } from './store/messages/accept-message-batch.js';
import { BatchSendService } from './services/messages/batch-send-service.js';
import { MessageListService } from './services/messages/message-list-service.js';
import { RefusedSendLog } from './store/messages/refused-send-log.js';
import { MessageAcceptBatcher } from './services/messages/message-accept-batcher.js';
import { MessageBatchInsert } from './store/messages/message-batch-insert.js';
import { MessageQueryService } from './services/messages/message-query-service.js';
import { MessageRepository } from './store/messages/message-repository.js';
import { SendService } from './services/messages/queue-message.js';
import { ProviderWebhookService } from './services/provider-webhooks/provider-webhook-service.js';
import { ProviderRegistry } from './services/providers/provider-registry.js';
import { SuppressionRepository } from './store/suppressions/suppression-repository.js';
import { SuppressionService } from './services/suppressions/suppression-service.js';
import { TemplateRenderer } from './services/templates/template-renderer.js';
import { TemplateRepository } from './store/templates/template-repository.js';
import { TemplateService } from './services/templates/template-service.js';
import { TenantRepository } from './store/tenants/tenant-repository.js';
import { TenantService } from './services/tenants/tenant-service.js';

export type MessagingModule = Readonly<{
  tenants: TenantService;
  templates: TemplateService;
  eventRules: EventRuleService;
  sender: SendService;
  batchSender: BatchSendService;
  messages: MessageQueryService;
  messageList: MessageListService;
  refusedSends: RefusedSendLog;
  suppressions: SuppressionService;
  /** Memory for attachment bytes held by request bodies being accepted (see byte-budget.ts). */
  acceptMemory: ByteBudget;
  /** Memory for attachment bytes held while dispatching. */
  dispatchMemory: ByteBudget;
  events: EventIngestService;
  providerWebhooks: ProviderWebhookService;
  limiter: RateLimiter;
  breakers: CircuitBreakers;
  dispatchLoop: BackgroundLoop;
  eventLoop: BackgroundLoop;
  pruneLoop: BackgroundLoop;
  /** The module's background loops, for /readyz and the console. */
  loops: readonly BackgroundLoop[];
  start(): void;
  stop(): Promise<void>;
}>;

export type MessagingModuleOptions = Readonly<{
  config: RelayConfig;
  database: RelayDatabase;
  log: FastifyBaseLogger;
  now?: () => number;
  /** The relay's webhook engine, once it exists (resolved lazily: it may be wired after messaging). */
  webhooks?: () => WebhookPublisher | undefined;
}>;

export function createMessagingModule(options: MessagingModuleOptions): MessagingModule {
  const { config, database, log } = options;
  const now = options.now ?? Date.now;
  const settings = config.messaging;
  const db = database.db;

  const tenantRows = new TenantRepository(db);
  const tenants = new TenantService(tenantRows, settings, now);
  const renderer = new TemplateRenderer();
  const templates = new TemplateService(new TemplateRepository(db), renderer, now);
  const messageRows = new MessageRepository(db, database.capabilities);
  const eventRows = new EventRepository(db, database.capabilities);
  const limiter = new RateLimiter(db, now, rateLimiterOptionsFor(database.capabilities));
  const breakers = new CircuitBreakers(now);
  const providers = new ProviderRegistry(settings);
  const notifier = new StatusNotifier(options.webhooks ?? (() => undefined), log);

  const suppressionRows = new SuppressionRepository(db);
  const acceptMemory = new ByteBudget(settings.attachmentMemoryBytes);
  const dispatchMemory = new ByteBudget(settings.attachmentMemoryBytes);
  const worker = new DispatchWorker({
    messages: messageRows,
    tenantRows,
    tenants,
    providers,
    breakers,
    notifier,
    config: settings,
    now,
    log,
    attachmentMemory: dispatchMemory,
    suppressions: suppressionRows,
  });
  const dispatchLoop = createBackgroundLoop({
    name: 'messaging-dispatch',
    intervalMs: settings.dispatchIntervalMs,
    log,
    pass: () => worker.runPass(),
    oldestDue: (at) => oldestDueAt(db, { table: 'msg_messages', status: 'queued', dueColumn: 'next_attempt_at' }, at),
    now,
  });
  const batchInsert = new MessageBatchInsert(db);
  const accepts = new MessageAcceptBatcher((batch) => acceptMessageBatch({ db, insert: batchInsert, limiter }, batch));
  const refusedSends = new RefusedSendLog(db, now);
  const sender = new SendService({ messages: messageRows, accepts, templates, renderer, now, onQueued: () => dispatchLoop.wake(), refusals: refusedSends });
  const eventWorker = new EventWorker({ events: eventRows, tenants, sender, renderer, now, log });
  const eventLoop = createBackgroundLoop({
    name: 'messaging-events',
    intervalMs: settings.dispatchIntervalMs,
    log,
    pass: () => eventWorker.runPass(),
    oldestDue: (at) => oldestDueAt(db, { table: 'msg_events', status: 'pending', dueColumn: 'next_attempt_at' }, at),
    now,
  });
  const pruneLoop = createBackgroundLoop({
    name: 'rate-limit-pruner',
    intervalMs: 10 * 60_000,
    log,
    oldestDue: (at) => oldestDueAt(db, { table: 'rate_limit_counters', dueColumn: 'expires_at' }, at),
    now,
    pass: async () => {
      await limiter.pruneExpired();
      await refusedSends.prune();
    },
  });
  const loops = [dispatchLoop, eventLoop, pruneLoop];

  return Object.freeze({
    tenants,
    templates,
    eventRules: new EventRuleService(eventRows, renderer, now),
    sender,
    batchSender: new BatchSendService(sender, limiter),
    messages: new MessageQueryService(messageRows),
    messageList: new MessageListService(db),
    refusedSends,
    acceptMemory,
    dispatchMemory,
    events: new EventIngestService(eventRows, limiter, now, () => eventLoop.wake()),
    providerWebhooks: new ProviderWebhookService({ messages: messageRows, tenantRows, tenants, limiter, notifier, config: settings, now, log }),
    suppressions: new SuppressionService(suppressionRows),
    limiter,
    breakers,
    dispatchLoop,
    eventLoop,
    pruneLoop,
    loops,
    start() {
      for (const loop of loops) loop.start();
    },
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
      providers.close();
    },
  });
}
