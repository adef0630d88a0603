// Swaps in a new token only while the stored hash is still the one read (compare-and-set), so of two
// concurrent rotations one wins; answers whether this one did.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function replaceCustomerToken(
  db: Kysely<Database>,
  customerId: string,
  currentTokenHash: string,
  next: { token_prefix: string; token_hash: string; token_rotated_at: string },
): Promise<boolean> {
  const updated = await db.updateTable('customers').set(next).where('id', '=', customerId).where('token_hash', '=', currentTokenHash).executeTakeFirst();
  return Number(updated.numUpdatedRows) !== 0;
}
