// POST /api/events: business events forwarded by other systems, processed asynchronously by event rules.
import { z } from 'zod';
import { jsonObject, requiredString } from './field-messages.js';

export const IngestEventIn = z
  .object({
    event_id: requiredString(64).describe('Unique id; a repeat is answered with status `duplicate`'),
    event_name: requiredString(100).describe('Dotted event name, e.g. invoice.paid'),
    source: requiredString(50).describe('Originating system'),
    org_id: z
      .number({ error: (issue) => (issue.input === undefined ? 'is required.' : 'must be an integer.') })
      .int({ error: 'must be an integer.' })
      .describe('The tenant’s organisation id'),
    actor: z.object(
      {
        type: requiredString(20).describe('Kind of actor, e.g. user or system'),
        id: z.number({ error: 'must be an integer.' }).int({ error: 'must be an integer.' }).optional(),
      },
      { error: (issue) => (issue.input === undefined ? 'is required.' : 'must be an object.') },
    ),
    data: jsonObject('Free-form event payload'),
    occurred_at: z.iso.datetime({ offset: true, error: (issue) => (issue.input === undefined ? 'is required.' : 'must be an ISO 8601 date-time.') }),
  })
  .meta({ id: 'IngestEventIn' });
export type IngestEventIn = z.infer<typeof IngestEventIn>;

export const IngestEventOut = z
  .object({ status: z.enum(['accepted', 'duplicate']) })
  .meta({ id: 'IngestEventOut' });
export type IngestEventOut = z.infer<typeof IngestEventOut>;

/** The answer to a signed provider webhook batch. */
export const ProviderWebhookOut = z
  .object({
    status: z.literal('ok'),
    received: z.number().int(),
    applied: z.number().int().describe('Events recorded on a message timeline'),
    duplicates: z.number().int().describe('Events already seen (same sg_event_id)'),
    unmatched: z.number().int().describe('Events for messages this relay does not know'),
  })
  .meta({ id: 'ProviderWebhookOut' });
export type ProviderWebhookOut = z.infer<typeof ProviderWebhookOut>;
