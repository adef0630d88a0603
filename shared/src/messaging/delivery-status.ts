// The delivery status vocabulary of the messaging contract, the same for every provider.
import { z } from 'zod';

export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'opened', 'clicked', 'bounced', 'failed'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES).meta({ id: 'DeliveryStatus' });
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** Channels: email is routable today; the others are planned. */
export const CHANNELS = ['email', 'whatsapp', 'sms', 'push'] as const;
export const ROUTABLE_CHANNELS = ['email'] as const;
export const Channel = z.enum(CHANNELS);
export type Channel = z.infer<typeof Channel>;

/** Delivery providers the relay has adapters for. */
export const PROVIDER_NAMES = ['outbox', 'smtp', 'sendgrid'] as const;
export const ProviderName = z.enum(PROVIDER_NAMES);
export type ProviderName = z.infer<typeof ProviderName>;
