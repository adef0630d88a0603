// Console query bodies (/admin/v1/console/…), exported through @ledgerwire/shared.
export * from './console-queries.js';
