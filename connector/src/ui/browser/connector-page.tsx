// The connector's local page: what a shop owner checks on the computer with TallyPrime — is it
// connected, are the books open, which companies it serves, is the sync done, what happened to each
// voucher — built from the product's UI kit as the console is.
import { Notice } from '@ledgerwire/ui-kit';
import { useMemo, useState } from 'preact/hooks';
import { BooksHelp } from './books-help.js';
import { CompaniesPanel } from './companies-panel.js';
import { companyNames } from './company-names.js';
import { EnrolPanel } from './enrol-panel.js';
import { JobsPanel } from './jobs-panel.js';
import type { LocalApi } from './local-api.js';
import { LogPanel } from './log-panel.js';
import { OverviewPanel } from './overview-panel.js';
import { SupportPanel } from './support-panel.js';
import { SyncPanel } from './sync-panel.js';
import { useConnectorState } from './use-connector-state.js';

export function ConnectorPage(props: { api: LocalApi }) {
  const state = useConnectorState(props.api);
  const [enrolledAs, setEnrolledAs] = useState<string | undefined>(undefined);
  const names = useMemo(() => companyNames(state.companies), [state.companies]);
  const status = state.status;
  return (
    <div class="connector">
      <header class="topbar">
        <span class="brand">Ledgerwire Connector</span>
        {status && (
          <span class="topbar-facts" id="version">
            {status.relay.machineName ? `${status.relay.machineName} · ` : ''}version {status.version}
          </span>
        )}
      </header>
      <main class="connector-main">
        {state.problem && (
          <div class="notice notice-error" role="alert" id="page-error">
            {state.problem.message}
          </div>
        )}
        {status === undefined ? (
          !state.problem && (
            <p class="loading" role="status">
              Asking the connector…
            </p>
          )
        ) : (
          <>
            {status.relay.state === 'not_enrolled' ? (
              // A new connector: connecting it is the one thing to do; the rest follows once it is.
              <>
                <EnrolPanel
                  api={props.api}
                  status={status}
                  onEnrolled={(connectorId) => {
                    setEnrolledAs(connectorId);
                    state.refresh();
                  }}
                />
                <OverviewPanel status={status} />
                <BooksHelp books={status.books} />
              </>
            ) : (
              <>
                {enrolledAs && (
                  <div id="enrol-result">
                    <Notice tone="success">Connected as {enrolledAs}. Now choose which of your companies is which company in TallyPrime, below.</Notice>
                  </div>
                )}
                <OverviewPanel status={status} />
                <BooksHelp books={status.books} />
                <CompaniesPanel api={props.api} status={status} lists={state.companies} listsProblem={state.companiesProblem} names={names} at={state.at} onChanged={state.refresh} />
                <SyncPanel api={props.api} status={status} names={names} at={state.at} />
                <JobsPanel jobs={state.jobs} names={names} at={state.at} />
                <LogPanel entries={state.log} at={state.at} />
              </>
            )}
            <SupportPanel api={props.api} status={status} onChanged={state.refresh} />
          </>
        )}
      </main>
    </div>
  );
}
