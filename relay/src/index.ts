// @ledgerwire/relay's package entry, for other workspaces (e2e, bench, the demo) and root tests.
export { buildApp, type BuildAppOptions } from './app.js';
export { loadConfig, ConfigError, type RelayConfig } from './config/load-config.js';
export { errorCatalogue, type ErrorCode } from './errors/catalogue.js';
export { MIGRATION_LOCK_KEY } from './db/migrate.js';
