// Console query bodies (/admin/v1/console/…), exported through @ledgerwire/shared.
export * from './console-queries.js';
export * from './console-bridge.js';
export * from './console-templates.js';
export * from './console-webhooks.js';
