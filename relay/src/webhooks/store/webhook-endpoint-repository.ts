// Webhook endpoints (each method runs one operation of store/endpoints/). Deleted endpoints stay as rows (their deliveries keep pointing at them
// for the history) but lose their secrets and are invisible to owners.
//
// Signing secrets cannot be hashed like every other secret the relay keeps (an HMAC signature is
// computed from the key itself), so they are encrypted at rest instead (security/secret-box.ts): this
// repository seals `secret` and each entry of `retired_secrets` on every write, and rows it reads carry
// them sealed. Callers treat the stored form as opaque (rotation compares it, retirement moves it) and
// only `openSecrets` turns it back into keys, at signing time. Rows written before encryption hold clear
// text: they still open, any write seals them, and `sealClearSecrets` (run at start) seals the rest.
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, WebhookEndpointsTable } from '../../db/schema.js';
import type { EndpointRow, WebhookOwner } from './webhook-records.js';
import { parseEventList } from './webhook-records.js';
import { isSealed, type SecretBox } from '../../security/secret-box.js';
import { parseRetiredSecrets, type RetiredSecret } from './retired-secrets.js';
import { disableEndpoint } from './endpoints/disable-endpoint.js';
import { findEndpointById } from './endpoints/find-endpoint-by-id.js';
import { findOwnerEndpoint } from './endpoints/find-owner-endpoint.js';
import { insertWebhookEndpoint } from './endpoints/insert-webhook-endpoint.js';
import { listEnabledOwnerEndpoints } from './endpoints/list-enabled-owner-endpoints.js';
import { listEndpointsWithClearSecrets } from './endpoints/list-endpoints-with-clear-secrets.js';
import { listOwnerEndpoints } from './endpoints/list-owner-endpoints.js';
import { markEndpointFailing } from './endpoints/mark-endpoint-failing.js';
import { markEndpointHealthy } from './endpoints/mark-endpoint-healthy.js';
import { replaceEndpointSecret } from './endpoints/replace-endpoint-secret.js';
import { updateWebhookEndpoint } from './endpoints/update-webhook-endpoint.js';
import { writeSealedEndpointSecrets } from './endpoints/write-sealed-endpoint-secrets.js';

/** An endpoint's signing keys in clear: the current one and the retired ones still listed. */
export type OpenedSecrets = Readonly<{ secret: string; retired: RetiredSecret[] }>;

export class WebhookEndpointRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  async insert(row: Insertable<WebhookEndpointsTable>): Promise<void> {
    await insertWebhookEndpoint(this.db, { ...row, secret: this.box.seal(row.secret, row.id), retired_secrets: this.sealRetired(row.retired_secrets, row.id) });
  }

  /**
   * Replaces the secret only if the stored one is still `expectedStored` (the sealed text read before):
   * two rotations at once cannot both win and drop a secret from the overlap. False when it changed.
   */
  async replaceSecret(
    id: string,
    expectedStored: string,
    changes: { secret: string; retired_secrets: string; updated_at: string },
  ): Promise<boolean> {
    return replaceEndpointSecret(this.db, id, expectedStored, {
      ...changes,
      secret: this.box.seal(changes.secret, id),
      retired_secrets: this.sealRetired(changes.retired_secrets, id),
    });
  }

  /** The row's keys in clear; throws SecretUnreadableError when this relay's key cannot open them. */
  openSecrets(row: Pick<EndpointRow, 'id' | 'secret' | 'retired_secrets'>): OpenedSecrets {
    return {
      secret: this.box.open(row.secret, row.id),
      retired: parseRetiredSecrets(row.retired_secrets).map((r) => ({ ...r, secret: this.box.open(r.secret, row.id) })),
    };
  }

  /**
   * Seals the secrets of rows written in clear before encryption existed; returns how many rows. Each
   * row is written only if it still holds what was read, so relays starting together do not collide.
   */
  async sealClearSecrets(): Promise<number> {
    const rows = await listEndpointsWithClearSecrets(this.db);
    let sealed = 0;
    for (const row of rows) {
      const secret = this.box.seal(row.secret, row.id);
      const retired = this.sealRetired(row.retired_secrets, row.id);
      if (secret === row.secret && retired === row.retired_secrets) continue;
      sealed += await writeSealedEndpointSecrets(this.db, row, { secret, retired_secrets: retired });
    }
    return sealed;
  }

  /** The owner's live endpoint, or undefined when absent, deleted or someone else's. */
  async find(owner: WebhookOwner, id: string): Promise<EndpointRow | undefined> {
    return findOwnerEndpoint(this.db, owner, id);
  }

  /** Any endpoint by id, deleted or not (the delivery worker decides what a deleted one means). */
  async findById(id: string): Promise<EndpointRow | undefined> {
    return findEndpointById(this.db, id);
  }

  async list(owner: WebhookOwner): Promise<EndpointRow[]> {
    return listOwnerEndpoints(this.db, owner);
  }

  /** Enabled endpoints of the owner whose filter includes `type`. */
  async listSubscribed(owner: WebhookOwner, type: string): Promise<EndpointRow[]> {
    const rows = await listEnabledOwnerEndpoints(this.db, owner);
    // The filter is a short JSON list; matching in SQL would need dialect-specific JSON functions.
    return rows.filter((row) => parseEventList(row.events).includes(type));
  }

  async update(id: string, changes: Updateable<WebhookEndpointsTable>): Promise<void> {
    const sealed = { ...changes };
    if (typeof changes.secret === 'string') sealed.secret = this.box.seal(changes.secret, id);
    if (typeof changes.retired_secrets === 'string') sealed.retired_secrets = this.sealRetired(changes.retired_secrets, id);
    await updateWebhookEndpoint(this.db, id, sealed);
  }

  // markFailing and markHealthy always write the endpoint row, even when nothing changes: that takes the
  // row's lock first thing in the worker's recording transaction, so every transaction touching an
  // endpoint's deliveries locks endpoint-then-deliveries and two of them can never deadlock.

  /** Marks the endpoint failing since `now` unless it already was; returns when its failures began. */
  async markFailing(id: string, now: string): Promise<string | null> {
    return markEndpointFailing(this.db, id, now);
  }

  async markHealthy(id: string): Promise<void> {
    await markEndpointHealthy(this.db, id);
  }

  /** Disables a still-enabled endpoint; false when it was already disabled or deleted (someone else did it). */
  async disable(id: string, reason: string, now: string): Promise<boolean> {
    return disableEndpoint(this.db, id, reason, now);
  }

  /** The retired list with every entry's secret sealed (the list's shape and expiries stay readable). */
  private sealRetired(json: string, id: string): string {
    const retired = parseRetiredSecrets(json);
    if (retired.every((r) => isSealed(r.secret))) return json;
    return JSON.stringify(retired.map((r) => ({ ...r, secret: this.box.seal(r.secret, id) })));
  }
}

/** Seals what was stored in clear before encryption existed (run once at start); returns how many rows. */
export function sealClearWebhookSecrets(db: Kysely<Database>, box: SecretBox): Promise<number> {
  return new WebhookEndpointRepository(db, box).sealClearSecrets();
}
