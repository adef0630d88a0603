// voucher_kind: the service's stable classification of a voucher, derived only from the reserved name of
// the built-in voucher type a (possibly renamed or custom) type descends from. Display names are the
// customer's and change; reserved names do not (contract, value rule 8).
import { z } from 'zod';

/** Built-in TallyPrime voucher types (reserved names) and the kind each maps to. */
const KIND_BY_RESERVED_NAME: Readonly<Record<string, VoucherKind>> = {
  'sales': 'sales',
  'purchase': 'purchase',
  'receipt': 'receipt',
  'payment': 'payment',
  'contra': 'contra',
  'journal': 'journal',
  'credit note': 'credit_note',
  'debit note': 'debit_note',
  'sales order': 'sales_order',
  'purchase order': 'purchase_order',
  'delivery note': 'delivery_note',
  'receipt note': 'receipt_note',
  'rejections in': 'rejections_in',
  'rejections out': 'rejections_out',
  'stock journal': 'stock_journal',
  'physical stock': 'physical_stock',
  'memorandum': 'memorandum',
  'reversing journal': 'reversing_journal',
  'payroll': 'payroll',
  'attendance': 'attendance',
  'material in': 'material_in',
  'material out': 'material_out',
  'job work in order': 'job_work_in_order',
  'job work out order': 'job_work_out_order',
};

export const VOUCHER_KINDS = [
  'sales',
  'purchase',
  'receipt',
  'payment',
  'contra',
  'journal',
  'credit_note',
  'debit_note',
  'sales_order',
  'purchase_order',
  'delivery_note',
  'receipt_note',
  'rejections_in',
  'rejections_out',
  'stock_journal',
  'physical_stock',
  'memorandum',
  'reversing_journal',
  'payroll',
  'attendance',
  'material_in',
  'material_out',
  'job_work_in_order',
  'job_work_out_order',
  'other',
] as const;

export const VoucherKind = z.enum(VOUCHER_KINDS).meta({ id: 'VoucherKind' });
export type VoucherKind = z.infer<typeof VoucherKind>;

/** The reserved names of TallyPrime's built-in voucher types, as the books spell them. */
export const RESERVED_VOUCHER_TYPE_NAMES = [
  'Sales', 'Purchase', 'Receipt', 'Payment', 'Contra', 'Journal', 'Credit Note', 'Debit Note', 'Sales Order',
  'Purchase Order', 'Delivery Note', 'Receipt Note', 'Rejections In', 'Rejections Out', 'Stock Journal',
  'Physical Stock', 'Memorandum', 'Reversing Journal', 'Payroll', 'Attendance', 'Material In', 'Material Out',
  'Job Work In Order', 'Job Work Out Order',
] as const;

/**
 * Normalised kind of a voucher type from its reserved name (the built-in type it derives from).
 * Reserved names are the books' own identifiers, not customer data, so spacing and case are forgiven;
 * anything that is not a built-in reserved name (including an empty one) is `other`.
 */
export function voucherKindFromReservedName(reservedName: string | null | undefined): VoucherKind {
  if (!reservedName) return 'other';
  const key = reservedName.replace(/\s+/g, ' ').trim().toLowerCase();
  return KIND_BY_RESERVED_NAME[key] ?? 'other';
}

function isReservedVoucherTypeName(name: string): boolean {
  return (RESERVED_VOUCHER_TYPE_NAMES as readonly string[]).includes(name);
}

/**
 * Resolves the reserved name a voucher type descends from by walking PARENT links: a built-in type
 * carries its own reserved name; a custom type names its parent type, which may itself be custom or a
 * renamed built-in. `types` maps type name → { reservedName, parent }. Returns '' when the chain ends
 * without reaching a built-in (unknown parent, or a cycle).
 */
export function resolveReservedName(
  typeName: string,
  types: ReadonlyMap<string, { reservedName: string; parent: string }>,
): string {
  const seen = new Set<string>();
  let current: string | undefined = typeName;
  while (current !== undefined && !seen.has(current)) {
    seen.add(current);
    const entry = types.get(current);
    // A parent missing from the map (an incremental pull carries only changed types) that is spelled as a
    // built-in is taken as that built-in: only a renamed built-in could make this wrong.
    if (!entry) return current !== typeName && isReservedVoucherTypeName(current) ? current : '';
    if (entry.reservedName) return entry.reservedName;
    current = entry.parent || undefined;
  }
  return '';
}

/** Kinds one write takes for each other: a journal may use a type that derives from Reversing Journal. */
const KIND_FAMILIES: readonly (readonly VoucherKind[])[] = [['journal', 'reversing_journal']];

/** Whether a voucher type of `typeKind` fits a write of `writeKind` (the same kind, or of one family). */
export function writeTakesKind(writeKind: VoucherKind, typeKind: VoucherKind): boolean {
  return typeKind === writeKind || KIND_FAMILIES.some((family) => family.includes(writeKind) && family.includes(typeKind));
}

/** A kind in words for messages: `credit_note` → "credit note". */
export function voucherKindWords(kind: VoucherKind): string {
  return kind.replace(/_/g, ' ');
}

/** Whether a text (an event type's first part, say) is a voucher kind. */
export function isVoucherKind(text: string | undefined): text is VoucherKind {
  return text !== undefined && (VOUCHER_KINDS as readonly string[]).includes(text);
}
