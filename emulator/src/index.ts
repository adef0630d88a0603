// @ledgerwire/emulator: a TallyPrime-compatible books server for tests, demos and integrators.
export { startEmulator, type EmulatorOptions, type RunningEmulator } from './emulator.js';
export { SEED_NAMES, type SeedName } from './seeds/seed-books.js';
export { DEMO_COMPANY, DEMO_SERVICES_COMPANY } from './seeds/demo-seed.js';
export { FAULT_KINDS, type FaultKind } from './faults.js';
