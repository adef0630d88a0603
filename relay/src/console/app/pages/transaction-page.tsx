// One transaction: its journey, the error in plain words, the XML sent to the books and the document.
import type { OperatorTransactionDetailOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { jobErrorInWords } from '../job-error-words.js';
import { href } from '../router.js';
import { indentXml } from '../xml-format.js';
import { LoadedView, Page, Panel, StatusBadge, When } from '../ui/components.js';
import { useLoad } from '../ui/use-load.js';

type TransactionDetail = z.infer<typeof OperatorTransactionDetailOut>;

export function TransactionPage({ jobId }: { jobId: string }) {
  const api = useApi();
  const loaded = useLoad(() => api.get<TransactionDetail>(`/admin/v1/transactions/${encodeURIComponent(jobId)}`), [jobId]);
  return (
    <LoadedView loaded={loaded} what="the transaction">
      {({ transaction: t }) => (
        <Page
          title={`Transaction ${t.transaction_id}`}
          intro={`${t.event_type} · job ${t.job_id}`}
          actions={
            <a class="button secondary" href={href('transactions')}>
              All transactions
            </a>
          }
        >
          {t.status === 'failed' && (
            <div class="notice notice-error" role="alert" aria-label="Why it failed">
              <p>
                <strong>{t.error_label ?? 'Failed'}.</strong> {jobErrorInWords(t.error_code)}
              </p>
              {t.error_message && <p>The books said: {t.error_message}</p>}
              <p class="muted">Error code {t.error_code}</p>
            </div>
          )}
          <Panel title="Summary">
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={t.status} />
              </dd>
              <dt>Company</dt>
              <dd>
                <a href={href('companies', t.service_company_id)}>{t.service_company_id}</a>
              </dd>
              <dt>Retries</dt>
              <dd>
                {t.retry_count} of {t.max_retries}
              </dd>
              <dt>Books voucher GUID</dt>
              <dd>{t.books_voucher_guid ? <code>{t.books_voucher_guid}</code> : '—'}</dd>
              <dt>Accepted</dt>
              <dd>
                <When at={t.created_at} />
              </dd>
              <dt>Finished</dt>
              <dd>
                <When at={t.completed_at} />
              </dd>
            </dl>
          </Panel>
          <Panel title="XML sent to the books">
            <pre class="code" tabIndex={0}>
              {indentXml(t.xml)}
            </pre>
          </Panel>
          <Panel title="Document as submitted">
            <pre class="code" tabIndex={0}>
              {JSON.stringify(t.document, null, 2)}
            </pre>
          </Panel>
        </Page>
      )}
    </LoadedView>
  );
}
