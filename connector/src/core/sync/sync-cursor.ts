// What a sync cursor says, per kind. Opaque to the relay; here it is small JSON:
//  masters  {"a": n, "v": k}                  every master with AlterID ≤ n is at the relay, and the
//                                             closing figures of stock items and groups as at AltVchId k
//  vouchers {"a": n} or {"a": n, "t": m, "w": "YYYYMMDD"}
//           — the second is a pass under way: vouchers changed after n, dated up to w, are at the
//             relay; when every window is done the cursor becomes {"a": m}.
//  report   {"a": n, "m": k}                  the report snapshots at the relay were read at AltVchId n,
//                                             AltMstId k
import { z } from 'zod';

const Cursor = z.object({
  a: z.number().int().nonnegative(),
  t: z.number().int().nonnegative().optional(),
  w: z.string().regex(/^\d{8}$/).optional(),
  m: z.number().int().nonnegative().optional(),
  v: z.number().int().nonnegative().optional(),
});
export type AlterCursor = z.infer<typeof Cursor>;

export function readCursor(text: string | undefined): AlterCursor {
  if (!text) return { a: 0 };
  try {
    const parsed = Cursor.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { a: 0 };
  } catch {
    return { a: 0 };
  }
}

export function writeCursor(cursor: AlterCursor): string {
  return JSON.stringify(cursor);
}
