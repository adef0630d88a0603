// The suppression row type, in a file of its own so that the repository and its store operations
// can both name it without importing each other.
import type { Selectable } from 'kysely';
import type { MsgSuppressionsTable } from '../../../db/schema.js';

export type SuppressionRow = Selectable<MsgSuppressionsTable>;
