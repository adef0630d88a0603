// @ledgerwire/shared: wire contracts (zod schemas, types inferred from them) and pure helpers.
// No I/O and no environment: everything here runs in Node, the browser and Electron alike.
export * from './common/error-body.js';
export * from './probes/health.js';
export * from './operator/whoami.js';
export * from './operator/operator-accounts.js';
export * from './protocol/index.js';
export * from './webhooks/index.js';
export * from './bridge/index.js';
export * from './messaging/index.js';
export * from './console/index.js';
export * from './bridge/voucher-kind.js';
export * from './bridge/wire-text.js';
export * from './bridge/wire-decimal.js';
export * from './bridge/inventory-postings.js';
export * from './bridge/voucher-document.js';
export * from './bridge/voucher-balance.js';
export * from './bridge/master-document.js';
export * from './bridge/pulled-books-objects.js';
export * from './books-xml/index.js';
