// The numbered migrations, in order. Add a file `NNNN-what-it-does.ts` and list it here.
import type { Migration } from 'kysely';
import * as relaySettings from './0001-relay-settings.js';

export const migrations: Record<string, Migration> = {
  '0001-relay-settings': relaySettings,
};
