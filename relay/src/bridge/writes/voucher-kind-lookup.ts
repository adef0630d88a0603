// voucher_kind of a voucher type in one company: from the type's reserved name as pulled from the
// books (walking custom types up to the built-in they derive from), never from its display name.
// Before the masters are pulled the endpoint's own kind stands in.
import { resolveReservedName, voucherKindFromReservedName, type VoucherKind } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function voucherKindOf(db: Kysely<Database>, companyId: number, voucherType: string, fallback: VoucherKind): Promise<VoucherKind> {
  const rows = await db
    .selectFrom('pulled_masters')
    .select(['name', 'reserved_name', 'parent'])
    .where('company_id', '=', companyId)
    .where('master_type', '=', 'voucher_type')
    .where('deleted', '=', 0)
    .execute();
  if (!rows.some((row) => row.name === voucherType)) return fallback;
  const types = new Map(rows.map((row) => [row.name, { reservedName: row.reserved_name ?? '', parent: row.parent ?? '' }]));
  const kind = voucherKindFromReservedName(resolveReservedName(voucherType, types));
  return kind === 'other' ? fallback : kind;
}
