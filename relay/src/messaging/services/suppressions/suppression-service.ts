// The tenant's suppression list as the API and the console show it: read it, remove an address
// (sends to it reach a provider again). Addresses arrive on it from provider events
// (provider-webhook-service.ts) and from test mode's simulated hard bounces and complaints.
import type { SuppressionDeleteOut, SuppressionListOut, SuppressionReason } from '@ledgerwire/shared';
import { AppError } from '../../../errors/catalogue.js';
import type { SuppressionRepository } from '../../store/suppressions/suppression-repository.js';

/** The list is answered whole up to this many (newest first); a tenant with more sees the newest. */
export const SUPPRESSION_LIST_LIMIT = 1000;

export class SuppressionService {
  constructor(private readonly repository: SuppressionRepository) {}

  async list(tenantId: string): Promise<SuppressionListOut> {
    const rows = await this.repository.list(tenantId, SUPPRESSION_LIST_LIMIT);
    return { suppressions: rows.map((row) => ({ email: row.email, reason: row.reason as SuppressionReason, created_at: row.created_at })) };
  }

  async remove(tenantId: string, email: string): Promise<SuppressionDeleteOut> {
    if (!(await this.repository.remove(tenantId, email))) throw new AppError('suppression_not_found');
    return { email: email.toLowerCase(), status: 'removed' };
  }
}
