// @ledgerwire/connector: the core (plain Node) and startConnectorService, which runs it with its local
// page. Used by the benches and the e2e suites; the CLI and the shells import their parts directly.
export * from './core/index.js';
export { startConnectorService, type ConnectorHandle, type StartConnectorOptions } from './app/start-connector.js';
