// The condition "published online but gone for good", shared by the read that lists such connectors and
// the write that turns one offline, so both judge alike. A fragment, run by neither file here.
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../../db/schema.js';

export function offlineDue(eb: ExpressionBuilder<Database, 'connectors'>, graceCutoff: string, staleCutoff: string) {
  return eb.and([
    eb('online', '=', 1),
    eb.or([
      eb.and([eb('connected', '=', 0), eb('disconnected_at', '<=', graceCutoff)]),
      eb.and([eb('connected', '=', 1), eb('last_seen_at', '<=', staleCutoff)]),
    ]),
  ]);
}
