// Table types for Kysely. Each service adds its tables here, next to the migration that creates them.
// Timestamps are ISO 8601 strings in UTC on both dialects; booleans are 0/1 integers.
import type { Generated } from 'kysely';

export interface RelaySettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface Database {
  relay_settings: RelaySettingsTable;
}

export type { Generated };
