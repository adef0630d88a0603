// Pulled masters for callers: the list envelope per type and the stock-group tree. Both need the
// key's `pull.master` capability and the company's masters pull; without either the answer is an
// empty list, not an error (contract, masters rule 2).
import {
  PULLED_MASTERS_MAX_LIMIT,
  type MasterType,
  type PulledMasterListOut,
  type PulledMasterRowOut,
  type StockTreeNode,
  type StockTreeOut,
} from '@ledgerwire/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import type { PulledMastersTable } from '../../../db/bridge-tables.js';
import type { CompanyRow } from '../../store/companies/company-repository.js';
import { parseJson } from '../../store/bridge-ids.js';
import { listPulledMasters } from '../../store/pulled/list-pulled-masters.js';
import { listStockMasters } from '../../store/pulled/list-stock-masters.js';

type Row = Selectable<PulledMastersTable>;
type StockItemLeaf = StockTreeNode['stock_items'][number];

export function mastersPullAllowed(capabilities: readonly string[], company: CompanyRow): boolean {
  return capabilities.includes('pull.master') && company.pull_masters === 1;
}

export function pulledMasterRow(row: Row): PulledMasterRowOut {
  const data = parseJson<{ aliases?: unknown; fields?: Record<string, unknown> }>(row.data, {});
  const aliases = Array.isArray(data.aliases) ? data.aliases.filter((a): a is string => typeof a === 'string') : [];
  return {
    master_type: row.master_type,
    master_name: row.name,
    books_master_guid: row.books_master_guid,
    request_type: 'pull',
    payload: {
      kind: 'master',
      master_type: row.master_type,
      name: row.name,
      aliases,
      fields: data.fields ?? {},
      books: { guid: row.books_master_guid, master_id: row.master_id, alter_id: row.alter_id },
    },
    updated_at: row.updated_at,
  };
}

export class PulledMasterService {
  private readonly db: Kysely<Database>;

  constructor(deps: { db: Kysely<Database> }) {
    this.db = deps.db;
  }

  async list(capabilities: readonly string[], company: CompanyRow, type: MasterType, page: { limit: number; offset: number }): Promise<PulledMasterListOut> {
    if (page.limit > PULLED_MASTERS_MAX_LIMIT) {
      throw new AppError('validation_failed', {
        message: `limit may be at most ${PULLED_MASTERS_MAX_LIMIT}; page with offset`,
        details: [{ field: 'limit', message: `must be at most ${PULLED_MASTERS_MAX_LIMIT}` }],
      });
    }
    if (!mastersPullAllowed(capabilities, company)) return { success: true, master_type: type, total: 0, count: 0, masters: [] };
    const { total, rows } = await listPulledMasters(this.db, company.id, type, page);
    return { success: true, master_type: type, total, count: rows.length, masters: rows.map(pulledMasterRow) };
  }

  async stockTree(capabilities: readonly string[], company: CompanyRow): Promise<StockTreeOut> {
    if (!mastersPullAllowed(capabilities, company)) return { success: true, company_id: company.id, stock_groups: [], ungrouped_items: [] };
    const rows = await listStockMasters(this.db, company.id);
    return { success: true, company_id: company.id, ...buildStockTree(rows) };
  }
}

/** Groups nest under their parent group; items hang from their group. Unknown parents sit at the top. */
export function buildStockTree(rows: readonly Row[]): { stock_groups: StockTreeNode[]; ungrouped_items: StockItemLeaf[] } {
  const nodes = new Map<string, StockTreeNode>();
  const fieldsOf = (row: Row) => parseJson<{ fields?: Record<string, unknown> }>(row.data, {}).fields ?? {};
  for (const row of rows.filter((r) => r.master_type === 'stock_group')) {
    const fields = fieldsOf(row);
    nodes.set(row.name, {
      name: row.name,
      books_master_guid: row.books_master_guid,
      closing_balance: fields['closing_balance'] ?? null,
      closing_value: fields['closing_value'] ?? null,
      stock_items: [],
      children: [],
    });
  }
  const roots: StockTreeNode[] = [];
  for (const row of rows.filter((r) => r.master_type === 'stock_group')) {
    const node = nodes.get(row.name);
    const parent = row.parent ? nodes.get(row.parent) : undefined;
    if (!node) continue;
    if (parent && parent !== node && !isAncestor(node, parent)) parent.children.push(node);
    else roots.push(node);
  }
  const ungrouped: StockItemLeaf[] = [];
  for (const row of rows.filter((r) => r.master_type === 'stock_item')) {
    const fields = fieldsOf(row);
    const leaf = { name: row.name, books_master_guid: row.books_master_guid, closing_balance: fields['closing_balance'] ?? null, closing_value: fields['closing_value'] ?? null };
    const group = row.parent ? nodes.get(row.parent) : undefined;
    if (group) group.stock_items.push(leaf);
    else ungrouped.push(leaf);
  }
  return { stock_groups: roots, ungrouped_items: ungrouped };
}

/** Guards against a parent cycle in the books' data turning the tree into a loop. */
function isAncestor(candidate: StockTreeNode, of: StockTreeNode): boolean {
  const stack = [...candidate.children];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === of) return true;
    if (next) stack.push(...next.children);
  }
  return false;
}
