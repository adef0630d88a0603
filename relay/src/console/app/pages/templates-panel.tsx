// A tenant's templates: the list (each opens the editor) and a form to add one.
import { useState } from 'preact/hooks';
import type { TemplateEnvelopeOut, TemplateListOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { href, navigate } from '../router.js';
import { ErrorNotice, LoadedView, Panel, Select, StatusBadge, Table, TextInput, When, useAction, useLoad } from '@ledgerwire/ui-kit';

type TemplateList = z.infer<typeof TemplateListOut>;
type TemplateEnvelope = z.infer<typeof TemplateEnvelopeOut>;

const CHANNEL_OPTIONS = [
  ['email', 'Email'],
  ['whatsapp', 'WhatsApp (planned)'],
  ['sms', 'SMS (planned)'],
  ['push', 'Push (planned)'],
] as const;

export function TemplatesPanel({ tenantId }: { tenantId: string }) {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const base = `/admin/v1/tenants/${encodeURIComponent(tenantId)}/templates`;
  const templates = useLoad(() => api.get<TemplateList>(base), [tenantId]);
  const [eventKey, setEventKey] = useState('');
  const [channel, setChannel] = useState('email');
  const [subject, setSubject] = useState('');
  const action = useAction();
  return (
    <Panel title="Templates">
      <LoadedView loaded={templates} what="the templates">
        {(data) => (
          <Table
            caption="Templates"
            rows={data.templates}
            rowKey={(t) => t.id}
            empty="No templates yet. A send names its template by event key: add one below."
            columns={[
              { title: 'Event key', cell: (t) => <a href={href('tenants', tenantId, 'templates', t.id)}>{t.event_key}</a> },
              { title: 'Channel', cell: (t) => t.channel },
              { title: 'Subject', cell: (t) => t.subject },
              { title: 'State', cell: (t) => <StatusBadge status={t.is_active ? 'active' : 'inactive'} /> },
              { title: 'Changed', cell: (t) => <When at={t.updated_at} /> },
            ]}
          />
        )}
      </LoadedView>
      <form
        class="form-row"
        aria-label="New template"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            const created = await api.post<TemplateEnvelope>(base, {
              event_key: eventKey,
              channel,
              subject,
              html: '<p>Hello {{name}},</p>\n<p>…</p>',
              text: 'Hello {{name}},\n…',
              is_active: true,
            });
            navigate(href('tenants', tenantId, 'templates', created.template.id));
          });
        }}
      >
        <TextInput label="Event key" value={eventKey} onInput={setEventKey} required maxLength={100} hint="e.g. invoice_paid" />
        <Select label="Channel" value={channel} onChange={setChannel} options={CHANNEL_OPTIONS} />
        <TextInput label="Subject" value={subject} onInput={setSubject} required maxLength={998} />
        <button type="submit" disabled={action.busy || !canAdmin}>
          Add template
        </button>
      </form>
      <ErrorNotice error={action.error} title="The template was not added." />
    </Panel>
  );
}
