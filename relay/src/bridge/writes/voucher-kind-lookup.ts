// voucher_kind of a voucher type in one company: from the type's reserved name as pulled from the
// books (walking custom types up to the built-in they derive from), never from its display name.
// Before the masters are pulled (or for a type the books do not have yet) the type is not known here.
import { resolveReservedName, voucherKindFromReservedName, type VoucherKind } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type KnownVoucherType = Readonly<{ kind: VoucherKind; reservedName: string }>;

/** The kind of a type the pulled masters know and trace to a built-in type; undefined otherwise. */
export async function knownVoucherType(db: Kysely<Database>, companyId: number, voucherType: string): Promise<KnownVoucherType | undefined> {
  const rows = await db
    .selectFrom('pulled_masters')
    .select(['name', 'reserved_name', 'parent'])
    .where('company_id', '=', companyId)
    .where('master_type', '=', 'voucher_type')
    .where('deleted', '=', 0)
    .execute();
  if (!rows.some((row) => row.name === voucherType)) return undefined;
  const types = new Map(rows.map((row) => [row.name, { reservedName: row.reserved_name ?? '', parent: row.parent ?? '' }]));
  const reservedName = resolveReservedName(voucherType, types);
  const kind = voucherKindFromReservedName(reservedName);
  return kind === 'other' ? undefined : { kind, reservedName };
}
