// The template editor's live preview: renders the draft with the sample data through the relay, a
// short pause after the last keystroke, and keeps the last good rendering while the next one loads.
import { useEffect, useState } from 'preact/hooks';
import type { ConsoleTemplateDraftPreviewOut } from '@ledgerwire/shared';
import { useApi } from '../api-context.js';

type Preview = ConsoleTemplateDraftPreviewOut;

const PREVIEW_DELAY_MS = 300;

export type TemplateDraft = Readonly<{ subject: string; html: string; text: string }>;

export function useLivePreview(tenantId: string, draft: TemplateDraft, sampleJson: string): Readonly<{ preview: Preview | undefined; error: unknown }> {
  const api = useApi();
  const [preview, setPreview] = useState<Preview | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    const data = parseSample(sampleJson);
    if (data === undefined) {
      setError(new Error('The sample data must be a JSON object, such as {"name": "Asha"}.'));
      return undefined;
    }
    let current = true;
    const timer = setTimeout(() => {
      const body = { subject: draft.subject, html: draft.html, text: draft.text === '' ? null : draft.text, data };
      api.post<Preview>(`/admin/v1/console/tenants/${encodeURIComponent(tenantId)}/template-previews`, body).then(
        (rendered) => {
          if (!current) return;
          setPreview(rendered);
          setError(undefined);
        },
        (failure: unknown) => current && setError(failure),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [tenantId, draft.subject, draft.html, draft.text, sampleJson]);
  return { preview, error };
}

function parseSample(json: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
