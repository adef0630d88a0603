// One transaction: its journey, why it waits or why it failed (in plain words), the books company it
// went to, the XML — labelled "sent" only once it was handed to a connector — and the document.
import type { ConsoleTransactionSummaryEnvelopeOut, OperatorTransactionDetailOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { LoadedView, Page, Panel, StatusBadge, When, useLoad } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { EndUserAdvice } from '../end-user-advice.js';
import { jobErrorInWords } from '../job-error-words.js';
import { href } from '../router.js';
import { indentXml } from '../xml-format.js';
import { formatAmount, Renumbered } from './transactions-page.js';

type TransactionDetail = z.infer<typeof OperatorTransactionDetailOut>;

export function TransactionPage({ jobId }: { jobId: string }) {
  const api = useApi();
  const loaded = useLoad(async () => {
    const path = encodeURIComponent(jobId);
    const [detail, summary] = await Promise.all([
      api.get<TransactionDetail>(`/admin/v1/transactions/${path}`),
      api.get<ConsoleTransactionSummaryEnvelopeOut>(`/admin/v1/console/transactions/${path}`),
    ]);
    return { t: detail.transaction, summary: summary.transaction };
  }, [jobId]);
  return (
    <LoadedView loaded={loaded} what="the transaction">
      {({ t, summary }) => {
        const sent = summary.sent_to_books;
        const books = summary.books_company_name ?? 'the paired books company';
        return (
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
                <EndUserAdvice message={t.user_message} fixBy={t.fix_by} />
                <p class="muted">Error code {t.error_code}</p>
              </div>
            )}
            {summary.waiting_reason && (
              <div class="notice notice-warning" role="status" aria-label="Why it waits">
                <p>
                  <strong>Waiting.</strong> {summary.waiting_reason.message}
                </p>
                <EndUserAdvice message={summary.waiting_reason.user_message} fixBy={summary.waiting_reason.fix_by} />
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
                  <a href={href('companies', summary.company_id)}>{summary.company_name}</a>
                </dd>
                <dt>Books company</dt>
                <dd>
                  {summary.books_company_name ?? '—'}
                  {summary.connector_machine && <span class="muted"> on {summary.connector_machine}</span>}
                  {!sent && <span class="muted"> (not sent yet)</span>}
                </dd>
                {t.job_type === 'voucher' ? (
                  <>
                    <dt>Voucher</dt>
                    <dd>
                      {summary.voucher_number ?? '—'} <Renumbered sent={summary.voucher_number} books={summary.books_voucher_number} />{' '}
                      <span class="muted">{summary.voucher_type}</span>
                    </dd>
                    <dt>Party</dt>
                    <dd>{summary.party ?? '—'}</dd>
                    <dt>Amount</dt>
                    <dd>{summary.amount === null ? '—' : formatAmount(summary.amount)}</dd>
                    <dt>Date</dt>
                    <dd>{summary.date ?? '—'}</dd>
                  </>
                ) : (
                  <>
                    <dt>Master</dt>
                    <dd>{summary.master_name ?? '—'}</dd>
                  </>
                )}
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
            <Panel title={sent ? 'XML sent to the books' : 'XML to be sent'}>
              <p class="muted">
                {sent
                  ? `Handed to the connector${summary.connector_machine ? ` on ${summary.connector_machine}` : ''} for ${books}.`
                  : `Not sent yet: this is the XML the connector will import into ${books} once the write is handed to it.`}
              </p>
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
        );
      }}
    </LoadedView>
  );
}
