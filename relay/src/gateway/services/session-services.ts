// What every session of one relay process shares: the bridge's job queue, pulled-data store and
// company pairings, the presence service, the cursor store, the timings, and a nudge for the
// presence sweep once a closed connector's grace period is over.
import type { SyncCursorStore } from '../store/sync-cursors/sync-cursor-store.js';
import type { Clock, GatewayCompanies, GatewayJobQueue, GatewayPulledData } from './gateway-ports.js';
import type { PresenceService } from './presence-service.js';

export type SessionSettings = Readonly<{ leaseMs: number; heartbeatMs: number; maxInFlight: number }>;

export type SessionServices = Readonly<{
  jobs: GatewayJobQueue;
  pulledData: GatewayPulledData;
  companies: GatewayCompanies;
  cursors: SyncCursorStore;
  presence: PresenceService;
  settings: SessionSettings;
  clock: Clock;
  offlineCheckAfterGrace(): void;
}>;
