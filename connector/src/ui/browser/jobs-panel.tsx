// The jobs the relay handed to this computer, newest first: which voucher (type, number, date, party,
// amount) or master, its state, and what it means — for a failure what to do, for a job still waiting
// why it waits (TallyPrime not running, the company not open, the relay out of reach).
import { Badge, Panel, Table } from '@ledgerwire/ui-kit';
import type { CompanyNames } from './company-names.js';
import type { JobView } from './local-api.js';
import { bookAmount, bookDate, localTime } from './local-words.js';

type Tone = 'good' | 'bad' | 'warn' | 'neutral';

const STATE_BADGES: Readonly<Record<JobView['state'], readonly [Tone, string]>> = {
  waiting: ['neutral', 'Waiting'],
  importing: ['warn', 'Importing'],
  completed: ['good', 'Booked'],
  failed: ['bad', 'Failed'],
};

function what(job: JobView): string {
  const voucher = job.voucher;
  if (voucher) {
    const type = voucher.voucherType ?? 'Voucher';
    return voucher.voucherNumber ? `${type} no. ${voucher.voucherNumber}` : `${type} (no number)`;
  }
  return job.subject ?? job.kind;
}

const dash = <span class="muted">—</span>;

export function JobsPanel(props: { jobs: readonly JobView[]; names: CompanyNames; at: Date }) {
  return (
    <Panel title="Recent jobs">
      <Table
        caption="Recent jobs"
        rows={props.jobs}
        rowKey={(job) => job.jobId}
        rowData={(job) => ({ 'data-job-id': job.jobId, 'data-state': job.state })}
        empty="No jobs yet: vouchers and masters sent to your books appear here."
        columns={[
          {
            title: 'Voucher or master',
            // One element per cell: in a narrow window a cell is a two-column grid (title, content).
            cell: (job) => (
              <span class="job-what">
                {what(job)}
                <span class="muted job-company"> {props.names.name(job.companyId)}</span>
              </span>
            ),
          },
          { title: 'Date', cell: (job) => (job.voucher?.date ? bookDate(job.voucher.date) : dash) },
          { title: 'Party', cell: (job) => job.voucher?.party ?? dash },
          { title: 'Amount', cell: (job) => (job.voucher?.amount ? <span class="amount">{bookAmount(job.voucher.amount)}</span> : dash) },
          {
            title: 'State',
            cell: (job) => (
              <span class="job-state">
                <Badge tone={STATE_BADGES[job.state][0]}>{STATE_BADGES[job.state][1]}</Badge>
                {!job.delivered && (job.state === 'completed' || job.state === 'failed') && <span class="muted not-reported"> not yet reported</span>}
              </span>
            ),
          },
          {
            title: 'Details',
            cell: (job) => (
              <span class="job-details">
                {job.explanation}
                {job.waitingReason && job.waitingReason !== job.explanation && <span class="waiting-reason"> {job.waitingReason}</span>}
              </span>
            ),
          },
          {
            title: 'Received',
            cell: (job) => (
              <time dateTime={job.receivedAt} title={job.receivedAt}>
                {localTime(job.receivedAt, props.at)}
              </time>
            ),
          },
        ]}
      />
    </Panel>
  );
}
