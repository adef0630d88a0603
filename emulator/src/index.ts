// @ledgerwire/emulator: a TallyPrime-compatible books server for tests, demos and integrators.
export { startEmulator, type EmulatorOptions, type RunningEmulator } from './emulator.js';
export { SEED_NAMES, type SeedName } from './seeds/seed-books.js';
export { DEMO_COMPANY, DEMO_SERVICES_COMPANY } from './seeds/demo-seed.js';
export { COMPANY_FAULT_KINDS, FAULT_KINDS, type CompanyFaultKind, type FaultKind } from './faults.js';
export { type CompanyLoadIn, type CompanyLoadOut } from './seeds/company-load.js';
export { type BusySample } from './control/busy-time.js';
