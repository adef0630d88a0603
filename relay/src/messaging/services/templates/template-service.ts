// Templates: operator CRUD and preview, and the send path's resolution including the test_email
// onboarding fallback (see resolveForSend).
import type { TemplateCreateIn, TemplateOut, TemplatePreviewIn, TemplateUpdateIn } from '@ledgerwire/shared';
import { AppError } from '../../../errors/catalogue.js';
import { isUniqueViolation, isoNow, newId } from '../../../foundation/messaging-ids.js';
import { ShortLivedCache } from '../../../foundation/short-lived-cache.js';
import { TEST_EMAIL_TEMPLATE, type TemplateRepository, type TemplateRow } from '../../store/templates/template-repository.js';
import type { RenderedMessage, TemplateRenderer } from './template-renderer.js';

export type ResolvedTemplate = Readonly<{ row: TemplateRow; fallback: boolean }>;

/** How long another relay process may keep using a template changed elsewhere. */
export const TEMPLATE_CACHE_TTL_MS = 2_000;

export class TemplateService {
  /** (tenant, event_key, channel) → resolution; cleared by every template change in this process. */
  private readonly resolved: ShortLivedCache<ResolvedTemplate | null>;
  /** Resolutions under way: the sends that miss the cache together share one lookup. */
  private readonly resolving = new Map<string, Promise<ResolvedTemplate | null>>();
  /** Bumped with every template change here: a lookup begun before it must not refill the cache. */
  private generation = 0;

  constructor(
    private readonly repository: TemplateRepository,
    private readonly renderer: TemplateRenderer,
    private readonly now: () => number,
  ) {
    this.resolved = new ShortLivedCache(TEMPLATE_CACHE_TTL_MS, now);
  }

  async create(tenantId: string, input: TemplateCreateIn): Promise<TemplateOut> {
    this.assertCompiles(input);
    const at = isoNow(this.now);
    const row: TemplateRow = {
      id: newId('tpl'),
      tenant_id: tenantId,
      event_key: input.event_key,
      channel: input.channel,
      subject: input.subject,
      html: input.html,
      text: input.text ?? null,
      is_active: input.is_active ? 1 : 0,
      created_at: at,
      updated_at: at,
    };
    assertHasContent(row);
    if (row.is_active === 1) await this.assertNoOtherActive(row);
    try {
      await this.repository.insert(row);
      this.forgetResolutions();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('template_active_conflict');
      throw error;
    }
    return templateOut(row);
  }

  async list(tenantId: string): Promise<TemplateOut[]> {
    return (await this.repository.list(tenantId)).map(templateOut);
  }

  async get(tenantId: string, id: string): Promise<TemplateOut> {
    return templateOut(await this.row(tenantId, id));
  }

  async update(tenantId: string, id: string, patch: TemplateUpdateIn): Promise<TemplateOut> {
    const row = await this.row(tenantId, id);
    this.assertCompiles(patch);
    const next: TemplateRow = {
      ...row,
      subject: patch.subject ?? row.subject,
      html: patch.html ?? row.html,
      text: patch.text === undefined ? row.text : patch.text,
      is_active: patch.is_active === undefined ? row.is_active : patch.is_active ? 1 : 0,
      updated_at: isoNow(this.now),
    };
    assertHasContent(next);
    if (next.is_active === 1 && row.is_active === 0) await this.assertNoOtherActive(next);
    try {
      await this.repository.update(id, next);
      this.forgetResolutions();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('template_active_conflict');
      throw error;
    }
    return templateOut(next);
  }

  async preview(tenantId: string, id: string, input: TemplatePreviewIn): Promise<RenderedMessage> {
    const row = await this.row(tenantId, id);
    return this.renderer.render({ subject: input.subject ?? row.subject, html: row.html, text: row.text }, input.data);
  }

  /**
   * The template a send uses: the tenant's active template for (event_key, channel). When there is
   * none, the test_email fallback applies only while the tenant is onboarding — it has an active
   * `test_email` template of its own on that channel and no other active template there yet — so a
   * first integration gets a visible test message instead of a silent failure, and a tenant with real
   * templates gets "Invalid template" for a typo. Never another tenant's template.
   */
  async resolveForSend(tenantId: string, eventKey: string, channel: string): Promise<ResolvedTemplate> {
    const key = JSON.stringify([tenantId, eventKey, channel]);
    let resolved = this.resolved.get(key);
    if (resolved === undefined) resolved = await this.resolveOnce(key, tenantId, eventKey, channel);
    // `error` stays the contract's text; the fields beside it say what had no active template.
    if (resolved === null) throw new AppError('invalid_template', { extra: { event_key: eventKey, channel } });
    return resolved;
  }

  private resolveOnce(key: string, tenantId: string, eventKey: string, channel: string): Promise<ResolvedTemplate | null> {
    const pending = this.resolving.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const lookup = this.lookup(tenantId, eventKey, channel).then((resolved) => {
      if (generation === this.generation) this.resolved.set(key, resolved);
      return resolved;
    });
    this.resolving.set(key, lookup);
    const done = () => {
      if (this.resolving.get(key) === lookup) this.resolving.delete(key);
    };
    lookup.then(done, done);
    return lookup;
  }

  /** A template changed here: every later send resolves again. */
  private forgetResolutions(): void {
    this.generation += 1;
    this.resolving.clear();
    this.resolved.clear();
  }

  private async lookup(tenantId: string, eventKey: string, channel: string): Promise<ResolvedTemplate | null> {
    const exact = await this.repository.findActive(tenantId, eventKey, channel);
    if (exact) return { row: exact, fallback: false };
    const testEmail = await this.repository.findActive(tenantId, TEST_EMAIL_TEMPLATE, channel);
    if (testEmail && (await this.repository.countActiveBesidesTestEmail(tenantId, channel)) === 0) {
      return { row: testEmail, fallback: true };
    }
    return null;
  }

  private async row(tenantId: string, id: string): Promise<TemplateRow> {
    const row = await this.repository.find(tenantId, id);
    if (!row) throw new AppError('template_not_found');
    return row;
  }

  private async assertNoOtherActive(row: TemplateRow): Promise<void> {
    const active = await this.repository.findActive(row.tenant_id, row.event_key, row.channel);
    if (active && active.id !== row.id) throw new AppError('template_active_conflict');
  }

  private assertCompiles(parts: { subject?: string | undefined; html?: string | undefined; text?: string | null | undefined }): void {
    if (parts.subject !== undefined) this.renderer.assertCompiles(parts.subject, 'subject');
    if (parts.html !== undefined) this.renderer.assertCompiles(parts.html, 'html');
    if (typeof parts.text === 'string') this.renderer.assertCompiles(parts.text, 'text');
  }
}

/** A template whose html and text are both blank can never make a message any provider takes. */
function assertHasContent(row: Pick<TemplateRow, 'html' | 'text'>): void {
  if (row.html.trim() === '' && (row.text ?? '').trim() === '') throw new AppError('template_content_empty');
}

export function templateOut(row: TemplateRow): TemplateOut {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    event_key: row.event_key,
    channel: row.channel as TemplateOut['channel'],
    subject: row.subject,
    html: row.html,
    text: row.text,
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
