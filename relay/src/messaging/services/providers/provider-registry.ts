// The providers this relay is configured for, by name. The outbox is always there; smtp and
// sendgrid only with their settings.
import type { ProviderName } from '@ledgerwire/shared';
import type { MessagingConfig } from '../../../config/load-config.js';
import type { EmailProvider } from './email-provider.js';
import { OutboxProvider } from './outbox-provider.js';
import { SendGridProvider } from './sendgrid-provider.js';
import { SmtpProvider } from './smtp-provider.js';

export class ProviderRegistry {
  private readonly providers = new Map<ProviderName, EmailProvider>();

  constructor(config: MessagingConfig) {
    this.providers.set('outbox', new OutboxProvider(config.outboxDir));
    if (config.smtp) this.providers.set('smtp', new SmtpProvider(config.smtp, config.providerTimeoutMs));
    const { apiKey } = config.sendgrid;
    if (apiKey) this.providers.set('sendgrid', new SendGridProvider({ ...config.sendgrid, apiKey }, config.providerTimeoutMs));
  }

  get(name: ProviderName): EmailProvider | undefined {
    return this.providers.get(name);
  }

  close(): void {
    for (const provider of this.providers.values()) provider.close?.();
  }
}
