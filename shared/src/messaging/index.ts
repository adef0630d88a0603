// Messaging wire contracts: send, events, provider webhooks, message read model, operator bodies.
export * from './delivery-status.js';
export * from './field-messages.js';
export * from './send-message.js';
export * from './ingest-event.js';
export * from './tenant-admin.js';
export * from './template-admin.js';
export * from './tenant-webhooks.js';
export * from './suppressions.js';
