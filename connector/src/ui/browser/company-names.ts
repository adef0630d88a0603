// The customer's companies by name ("Acme Traders"), as the relay lists them; a company the lists do
// not name (yet) is "company 7".
import type { CompanyLists } from './local-api.js';

export type CompanyNames = Readonly<{
  /** "Acme Traders", or "company 7" when the lists do not name it. */
  name(companyId: number): string;
  /** "Acme Traders (company 7)": in sentences, with the id support asks for. */
  label(companyId: number): string;
}>;

export function companyNames(lists: CompanyLists | undefined): CompanyNames {
  const byId = new Map((lists?.customer ?? []).map((c) => [c.company_id, c.name]));
  return {
    name: (companyId) => byId.get(companyId) ?? `company ${companyId}`,
    label: (companyId) => {
      const known = byId.get(companyId);
      return known === undefined ? `company ${companyId}` : `${known} (company ${companyId})`;
    },
  };
}
