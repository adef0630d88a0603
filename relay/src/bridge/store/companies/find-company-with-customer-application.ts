// A company's row with the application of the customer it is attached to, in one read: the whole
// key → application → customer → company chain of a company-scoped call is checked from it.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';

export type CompanyWithCustomerApplication = Selectable<CompaniesTable> & { customer_application_id: string | null };

export function findCompanyWithCustomerApplication(db: Kysely<Database>, companyId: number): Promise<CompanyWithCustomerApplication | undefined> {
  return db
    .selectFrom('companies')
    .leftJoin('customers', 'customers.id', 'companies.customer_id')
    .selectAll('companies')
    .select('customers.application_id as customer_application_id')
    .where('companies.id', '=', companyId)
    .executeTakeFirst();
}
