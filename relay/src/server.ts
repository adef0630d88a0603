// Starts the relay: load config (a bad variable exits 1 with one line), build the app, listen, and
// close gracefully on SIGINT / SIGTERM within the shutdown timeout.
import process from 'node:process';
import { buildApp } from './app.js';
import { ConfigError, loadConfigFromProcess, type RelayConfig } from './config/load-config.js';

function configOrExit(): RelayConfig {
  try {
    return loadConfigFromProcess();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const app = await buildApp(config);
  // Listening for signals before anything is printed: whoever reads the address may stop us at once.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      process.stderr.write(`Shutdown took longer than ${config.shutdownTimeoutMs} ms; exiting\n`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Error while closing: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  const address = await app.listen({ port: config.port, host: config.host });
  const port = app.server.address();
  const boundPort = typeof port === 'object' && port ? port.port : config.port;
  // The default PUBLIC_URL names this process's own port (which PORT=0 leaves to the system); one set to
  // a balancer's address is printed as it is.
  const base = new URL(config.publicUrl).port === String(config.port) ? config.publicUrl.replace(/:\d+$/, `:${boundPort}`) : config.publicUrl;

  process.stdout.write(`Ledgerwire relay listening on ${address} (${app.database.capabilities.dialect})\n`);
  process.stdout.write(`  API docs: ${base}/docs\n  Console:  ${base}/console\n`);
  const generated = app.operators.token.generated;
  if (generated) {
    // Shown once: only its SHA-256 is kept in DATA_DIR. Deliberately not through the logger.
    process.stdout.write(
      `  Operator token (shown once; keep it): ${generated}\n  Sign in: ${base}/console#token=${generated}\n`,
    );
  }

}

main().catch((error: unknown) => {
  process.stderr.write(`Relay failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
