// The connector's headless core, as the program around it (../app, the CLI, the Electron shell) uses
// it: plain Node, no UI and no electron. The running program is assembled in ../app/start-connector.ts.
export type { ConnectorStatus } from './service/connector-status.js';
export type { LogRecord } from './support/logger.js';
export { defaultDataDir, loadConnectorConfig, DEFAULT_BOOKS_URL, type ConnectorConfig } from './config/load-config.js';
export { ConnectorService } from './service/connector-service.js';
export { BooksClient } from './books/books-client.js';
export { ConnectorAlreadyRunningError } from './service/run-lock.js';
export { CONNECTOR_VERSION } from './version.js';
export { reconnectPolicy, type ReconnectPolicy } from './relay/backoff.js';
