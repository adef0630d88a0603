// The connect session row as stored, shared by the operations beside it (a type, no SQL).
import type { Selectable } from 'kysely';
import type { ConnectSessionsTable } from '../../../db/connect-session-tables.js';

export type ConnectSessionRow = Selectable<ConnectSessionsTable>;
