// The template editor: subject, HTML and text in Handlebars, with a live preview rendered by the relay
// from sample data as you type (the draft is not saved until you press Save; see use-live-preview.ts).
// The sample data starts out fitted to the template's own variables (read by the relay from the
// Handlebars syntax), and the preview names any variable the sample data lacks.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConsoleTemplateSampleOut, TemplateEnvelopeOut, TemplateOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { href } from '../router.js';
import { Badge, Checkbox, ErrorNotice, Field, LoadedView, Notice, Page, Panel, TextInput, useAction, useLoad } from '@ledgerwire/ui-kit';
import { useLivePreview } from './use-live-preview.js';

type TemplateEnvelope = z.infer<typeof TemplateEnvelopeOut>;

export function TemplatePage({ tenantId, templateId }: { tenantId: string; templateId: string }) {
  const api = useApi();
  const path = `/admin/v1/tenants/${encodeURIComponent(tenantId)}/templates/${encodeURIComponent(templateId)}`;
  const loaded = useLoad(() => api.get<TemplateEnvelope>(path), [path]);
  return (
    <LoadedView loaded={loaded} what="the template">
      {({ template }) => <TemplateEditor key={template.id} template={template} path={path} tenantId={tenantId} onSaved={loaded.reload} />}
    </LoadedView>
  );
}

function TemplateEditor(props: { template: TemplateOut; path: string; tenantId: string; onSaved: () => void }) {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const { template } = props;
  const [subject, setSubject] = useState(template.subject);
  const [html, setHtml] = useState(template.html);
  const [text, setText] = useState(template.text ?? '');
  const [active, setActive] = useState(template.is_active);
  const [sample, setSample] = useState('{}');
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const fill = useAction();
  // Until the user types their own sample data, the fitted sample may replace it.
  const sampleEdited = useRef(false);

  const fillSample = async (draft: { subject: string; html: string; text: string }, onlyIfUntouched: boolean) => {
    const body = { subject: draft.subject, html: draft.html, text: draft.text === '' ? null : draft.text };
    const fitted = await api.post<ConsoleTemplateSampleOut>(`/admin/v1/console/tenants/${encodeURIComponent(props.tenantId)}/template-samples`, body);
    if (onlyIfUntouched && sampleEdited.current) return;
    setSample(JSON.stringify(fitted.sample_data, null, 2));
  };
  useEffect(() => {
    void fill.run(() => fillSample({ subject: template.subject, html: template.html, text: template.text ?? '' }, true));
  }, []);

  const { preview, error: previewError } = useLivePreview(props.tenantId, { subject, html, text }, sample);

  return (
    <Page
      title={`Template ${template.event_key}`}
      intro={`${template.channel} · ${template.id}`}
      actions={
        <a class="button secondary" href={href('tenants', props.tenantId)}>
          Back to tenant
        </a>
      }
    >
      <div class="editor">
        <Panel title="Edit">
          <form
            class="stack"
            onSubmit={(event) => {
              event.preventDefault();
              setSaved(false);
              void save.run(async () => {
                await api.patch(props.path, { subject, html, text: text === '' ? null : text, is_active: active });
                setSaved(true);
                props.onSaved();
              });
            }}
          >
            <TextInput label="Subject" value={subject} onInput={(v) => (setSaved(false), setSubject(v))} maxLength={998} />
            <Field label="HTML body" hint="Handlebars: {{name}} inserts a value, HTML-escaped">
              <textarea rows={12} spellcheck={false} value={html} onInput={(e) => (setSaved(false), setHtml(e.currentTarget.value))} />
            </Field>
            <Field label="Text body" hint="Optional plain-text part">
              <textarea rows={6} spellcheck={false} value={text} onInput={(e) => (setSaved(false), setText(e.currentTarget.value))} />
            </Field>
            <Checkbox label="Active (sends use this template)" checked={active} onChange={(v) => (setSaved(false), setActive(v))} />
            <div class="form-actions">
              <button type="submit" disabled={save.busy || !canAdmin}>
                Save template
              </button>
              {saved && <Badge tone="good">Saved</Badge>}
            </div>
            <ErrorNotice error={save.error} title="The template was not saved." />
          </form>
        </Panel>
        <Panel title="Live preview">
          <Field label="Sample data (JSON)" hint="The data a send would carry; it starts out fitted to the template’s variables">
            <textarea
              rows={8}
              spellcheck={false}
              value={sample}
              onInput={(e) => {
                sampleEdited.current = true;
                setSample(e.currentTarget.value);
              }}
            />
          </Field>
          <div class="form-actions">
            <button type="button" class="secondary small" disabled={fill.busy} onClick={() => void fill.run(() => fillSample({ subject, html, text }, false))}>
              Fit sample data to the template
            </button>
          </div>
          <ErrorNotice error={fill.error} title="No sample data could be made:" />
          <ErrorNotice error={previewError} title="The preview cannot be shown:" />
          {preview && preview.missing_variables.length > 0 && (
            <Notice tone="warning" label="Missing variables">
              The sample data has no value for <strong>{preview.missing_variables.join(', ')}</strong>: {preview.missing_variables.length === 1 ? 'it renders' : 'they render'} empty. Add{' '}
              {preview.missing_variables.length === 1 ? 'it' : 'them'} to the sample data, or press “Fit sample data to the template”.
            </Notice>
          )}
          {preview && (
            <div class="preview" aria-label="Rendered preview">
              <p>
                <span class="muted">Subject: </span>
                <strong data-testid="preview-subject">{preview.subject}</strong>
              </p>
              <iframe title="HTML preview" sandbox="" srcdoc={preview.html} class="preview-frame" />
              {preview.text !== null && (
                <pre class="preview-text" aria-label="Text preview">
                  {preview.text}
                </pre>
              )}
            </div>
          )}
        </Panel>
      </div>
    </Page>
  );
}
