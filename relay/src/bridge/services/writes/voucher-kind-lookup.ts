// voucher_kind of a voucher type in one company: from the type's reserved name as pulled from the
// books (walking custom types up to the built-in they derive from), never from its display name.
// Before the masters are pulled (or for a type the books do not have yet) the type is not known here.
import { resolveReservedName, voucherKindFromReservedName, type VoucherKind } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { ShortLivedCache } from '../../../foundation/short-lived-cache.js';
import { listVoucherTypesOfCompany } from '../../store/writes/list-voucher-types-of-company.js';

export type KnownVoucherType = Readonly<{ kind: VoucherKind; reservedName: string }>;

type TypeTree = ReadonlyMap<string, { reservedName: string; parent: string }>;

/**
 * How long a company's voucher types, as last read, serve the writes of that company (every write
 * reads them). Masters stored through this process's pulled-data store clear them at once; a sync
 * stored by another relay process is seen within this time.
 */
export const VOUCHER_TYPES_CACHE_TTL_MS = 2_000;

export class VoucherTypeKinds {
  private readonly db: Kysely<Database>;
  private readonly cache: ShortLivedCache<TypeTree>;

  constructor(deps: { db: Kysely<Database>; now?: () => number }) {
    this.db = deps.db;
    this.cache = new ShortLivedCache(VOUCHER_TYPES_CACHE_TTL_MS, deps.now ?? Date.now);
  }

  /** Called after pulled masters of any company changed in this process. */
  forget(): void {
    this.cache.clear();
  }

  /** The kind of a type the pulled masters know and trace to a built-in type; undefined otherwise. */
  async known(companyId: number, voucherType: string): Promise<KnownVoucherType | undefined> {
    const types = await this.typesOf(companyId);
    if (!types.has(voucherType)) return undefined;
    const reservedName = resolveReservedName(voucherType, types);
    const kind = voucherKindFromReservedName(reservedName);
    return kind === 'other' ? undefined : { kind, reservedName };
  }

  /** The company's voucher types from its pulled masters; concurrent misses share one read. */
  private typesOf(companyId: number): Promise<TypeTree> {
    return this.cache.getOrLoad(String(companyId), async () => {
      const rows = await listVoucherTypesOfCompany(this.db, companyId);
      return new Map(rows.map((row) => [row.name, { reservedName: row.reserved_name ?? '', parent: row.parent ?? '' }])) as TypeTree;
    });
  }
}
