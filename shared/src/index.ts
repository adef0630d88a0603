// @ledgerwire/shared: wire contracts (zod schemas, types inferred from them) and pure helpers.
// No I/O and no environment: everything here runs in Node, the browser and Electron alike.
export * from './common/error-body.js';
export * from './probes/health.js';
export * from './operator/whoami.js';
