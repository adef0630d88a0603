// The row types of messaging tenants and their API keys, in a file of their own so that the
// repository and its store operations can both name them without importing each other.
import type { Selectable } from 'kysely';
import type { MsgApiKeysTable, MsgTenantsTable } from '../../../db/schema.js';

export type TenantRow = Selectable<MsgTenantsTable>;
export type ApiKeyRow = Selectable<MsgApiKeysTable>;
