// Seeds named on the command line (`--seed demo|empty`, `--vouchers N`); applied only to empty books,
// so a restart keeps what was booked.
import type { BooksStore } from '../state/books-store.js';
import { seedDemo, seedEmpty } from './demo-seed.js';
import { loadVouchers } from './load-vouchers.js';

export const SEED_NAMES = ['demo', 'empty'] as const;
export type SeedName = (typeof SEED_NAMES)[number];

export function seedBooks(store: BooksStore, seed: SeedName, vouchers: number): void {
  // Load vouchers post to the demo company's ledgers; the empty books have none to post to.
  if (seed === 'empty' && vouchers > 0) throw new Error('--vouchers needs the demo seed');
  store.transaction(() => {
    const books = seed === 'demo' ? seedDemo(store) : seedEmpty(store);
    if (vouchers > 0) loadVouchers(books, vouchers);
  });
}
