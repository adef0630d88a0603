// Typed field values of an export object, for TDL formulae ($Date is a date, $AlterID a number,
// $IsCancelled a logical, amounts in rupees) and static variables (##SVFromDate, ##SVCurrentCompany).
import { parseAmount, parseLogical, parseTallyDate } from '../tally-format.js';
import type { ExportContext } from './export-context.js';
import type { ExportObject } from './export-object.js';
import { fieldTypes } from './field-catalogue.js';
import type { FormulaScope, TdlValue } from './tdl-formula.js';

export function fieldText(obj: ExportObject, name: string): string | undefined {
  const upper = name.toUpperCase();
  const computed = obj.computed[upper]?.();
  if (computed !== undefined) return computed;
  const stored = obj.stored.find((n) => n.tag.toUpperCase() === upper && n.children.length === 0);
  return stored?.text;
}

function typedValue(type: string | undefined, text: string): TdlValue {
  switch (type) {
    case 'Date':
      return { date: parseTallyDate(text) ?? '' };
    case 'Number':
      return Number(text.trim()) || 0;
    case 'Logical':
      return parseLogical(text) ?? false;
    case 'Amount':
      return (parseAmount(text) ?? 0) / 100;
    default:
      return text;
  }
}

export function objectScope(ctx: ExportContext, obj: ExportObject): FormulaScope {
  const types = fieldTypes(obj.tag);
  return {
    field: (name) => {
      const upper = name.toUpperCase();
      const type = types[upper] ?? (['ISCANCELLED', 'ISOPTIONAL', 'ISDELETED', 'ISINVOICE'].includes(upper) ? 'Logical' : undefined);
      return typedValue(type, fieldText(obj, upper) ?? '');
    },
    variable: (name) => {
      const value = ctx.staticVariable(name) ?? '';
      return /date$/i.test(name) ? { date: parseTallyDate(value) ?? '' } : value;
    },
  };
}
