// /api/v1/pulled-masters/{type} and /api/v1/stock-tree bodies: masters read out of the company.
import { z } from 'zod';

export const PULLED_MASTERS_MAX_LIMIT = 200;

export const PulledMasterListQuery = z.object({
  company_id: z.string().optional().describe('Required (or the X-Service-Company header)'),
  limit: z.coerce.number().int().min(1).default(100).describe(`At most ${PULLED_MASTERS_MAX_LIMIT}; more is refused with 422`),
  offset: z.coerce.number().int().min(0).default(0),
});

export const PulledMasterRowOut = z
  .object({
    master_type: z.string(),
    master_name: z.string(),
    books_master_guid: z.string(),
    request_type: z.literal('pull'),
    payload: z.object({
      kind: z.literal('master'),
      master_type: z.string(),
      name: z.string(),
      aliases: z.array(z.string()),
      fields: z.record(z.string(), z.unknown()),
      books: z.object({ guid: z.string(), master_id: z.string().nullable(), alter_id: z.string().nullable() }),
    }),
    updated_at: z.string(),
  })
  .meta({ id: 'PulledMasterRowOut' });
export type PulledMasterRowOut = z.infer<typeof PulledMasterRowOut>;

export const PulledMasterListOut = z.object({
  success: z.literal(true),
  master_type: z.string(),
  total: z.number().int(),
  count: z.number().int(),
  masters: z.array(PulledMasterRowOut),
});
export type PulledMasterListOut = z.infer<typeof PulledMasterListOut>;

export type StockTreeNode = {
  name: string;
  books_master_guid: string;
  closing_balance: unknown;
  closing_value: unknown;
  stock_items: { name: string; books_master_guid: string; closing_balance: unknown; closing_value: unknown }[];
  children: StockTreeNode[];
};

const StockItemLeaf = z.object({ name: z.string(), books_master_guid: z.string(), closing_balance: z.unknown(), closing_value: z.unknown() });

export const StockTreeNodeOut: z.ZodType<StockTreeNode> = z
  .object({
    name: z.string(),
    books_master_guid: z.string(),
    closing_balance: z.unknown(),
    closing_value: z.unknown(),
    stock_items: z.array(StockItemLeaf),
    get children() {
      return z.array(StockTreeNodeOut);
    },
  })
  .meta({ id: 'StockTreeNodeOut' });

export const StockTreeQuery = z.object({ company_id: z.string().optional() });

export const StockTreeOut = z.object({
  success: z.literal(true),
  company_id: z.number().int(),
  stock_groups: z.array(StockTreeNodeOut),
  ungrouped_items: z.array(StockItemLeaf).describe('Stock items under Primary or under a group not pulled'),
});
export type StockTreeOut = z.infer<typeof StockTreeOut>;
