// Accounting bridge API bodies (/api/v1 and its operator views), exported through @ledgerwire/shared.
export * from './errors.js';
export * from './end-user-guidance.js';
export * from './customers.js';
export * from './companies.js';
export * from './transactions.js';
export * from './operator.js';
export * from './pulled-vouchers.js';
export * from './pulled-masters.js';
export * from './masters-api.js';
export * from './webhooks-api.js';
export * from './ping.js';
export * from './voucher-lifecycle.js';
export * from './connect-sessions.js';
