// The row types of ingested business events and event rules, in a file of their own so that the
// repository and its store operations can both name them without importing each other.
import type { Selectable } from 'kysely';
import type { MsgEventRulesTable, MsgEventsTable } from '../../../db/schema.js';

export type EventRow = Selectable<MsgEventsTable>;
export type EventRuleRow = Selectable<MsgEventRulesTable>;
