// The operator account row as stored, shared by the operations beside it (a type, no SQL).
import type { Selectable } from 'kysely';
import type { OperatorTables } from '../../../db/operator-tables.js';

export type OperatorAccountRow = Selectable<OperatorTables['operator_accounts']>;
