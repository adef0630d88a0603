// @ledgerwire/test-kit's package entry: the one relay starter, call helper, eventually, CLI runner,
// test clock and webhook catcher that every suite, e2e driver and benchmark uses (see README.md).
export { call, type CallOptions, type CallResult, type CallTarget } from './call.js';
export { eventually, type EventuallyOptions } from './eventually.js';
export { runCli, type CliResult, type RunCliOptions } from './run-cli.js';
export { startRelay, TEST_OPERATOR_TOKEN, type StartRelayOptions, type TestRelay } from './start-relay.js';
export { availableDatabaseKinds, createTestDatabase, describeOnDatabases, type DatabaseKind, type TestDatabase } from './test-databases.js';
export { midMinute, testClock, type TestClock } from './test-clock.js';
export { startWebhookCatcher, type CatcherAnswer, type CaughtDelivery, type WebhookCatcher } from './webhook-catcher.js';
