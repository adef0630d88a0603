// The console shell: sign-in gate, navigation by area, and the page for the current address.
import { useMemo, useState } from 'preact/hooks';
import { roleAllows, type OperatorRole, type WhoamiOut } from '@ledgerwire/shared';
import { createApiClient } from './api-client.js';
import { ApiContext } from './api-context.js';
import { OperatorContext } from './operator-context.js';
import { href, useRoute, type Route } from './router.js';
import { forgetToken, storedToken, storeToken, takeTokenFromFragment } from './session.js';
import { SignInPage } from './pages/sign-in-page.js';
import { TenantsPage } from './pages/tenants-page.js';
import { TenantPage } from './pages/tenant-page.js';
import { TemplatePage } from './pages/template-page.js';
import { MessagesPage } from './pages/messages-page.js';
import { MessagePage } from './pages/message-page.js';
import { ApplicationsPage } from './pages/applications-page.js';
import { ApplicationPage } from './pages/application-page.js';
import { CompaniesPage } from './pages/companies-page.js';
import { CompanyPage } from './pages/company-page.js';
import { ConnectSessionsPage } from './pages/connect-sessions-page.js';
import { ConnectorsPage } from './pages/connectors-page.js';
import { TransactionsPage } from './pages/transactions-page.js';
import { TransactionPage } from './pages/transaction-page.js';
import { WebhooksPage } from './pages/webhooks-page.js';
import { AuditPage } from './pages/audit-page.js';
import { OperatorsPage } from './pages/operators-page.js';
import { BackgroundLoopsPage } from './pages/background-loops-page.js';

const fragmentToken = takeTokenFromFragment();

// Support starts from a company (a customer calls about their books), so Companies comes first and
// is the page the console opens on.
// A link's third element is the role it needs (the page would only show a refusal otherwise).
const NAV: readonly (readonly [string, readonly (readonly [string, string, OperatorRole?])[]])[] = [
  [
    'Accounting bridge',
    [
      ['companies', 'Companies'],
      ['transactions', 'Transactions'],
      ['connectors', 'Connectors'],
      ['applications', 'Applications'],
    ],
  ],
  ['Messaging', [['tenants', 'Tenants']]],
  [
    'Operations',
    [
      ['audit', 'Audit log'],
      ['background-work', 'Background work'],
      ['operators', 'Operators', 'admin'],
    ],
  ],
];

export function ConsoleApp() {
  const [token, setToken] = useState<string | undefined>(() => fragmentToken ?? storedToken());
  const [relay, setRelay] = useState<WhoamiOut['relay'] | undefined>(undefined);
  const [operator, setOperator] = useState<WhoamiOut['operator'] | undefined>(undefined);
  const [signedOutReason, setSignedOutReason] = useState<string | undefined>(undefined);
  const route = useRoute();

  const api = useMemo(
    () =>
      token === undefined
        ? undefined
        : createApiClient(token, () => {
            forgetToken();
            setToken(undefined);
            setRelay(undefined);
            setSignedOutReason('The relay no longer accepts your operator token (it may have been rotated). Sign in again.');
          }),
    [token],
  );

  if (api === undefined || relay === undefined || operator === undefined) {
    return (
      <SignInPage
        initialToken={token}
        reason={signedOutReason}
        onSignedIn={(accepted, who) => {
          storeToken(accepted);
          setToken(accepted);
          setRelay(who.relay);
          setOperator(who.operator);
          setSignedOutReason(undefined);
        }}
      />
    );
  }

  return (
    <ApiContext.Provider value={api}>
      <OperatorContext.Provider value={operator}>
        <div class="shell">
          <a class="skip-link" href="#main">
            Skip to content
          </a>
          <header class="topbar">
            <a class="brand" href={href('companies')}>
              Ledgerwire console
            </a>
            <span class="relay-id" title={`Installation ${relay.installation_id}`}>
              relay {relay.version} · {relay.database}
            </span>
            <span class="signed-in-as" aria-label="Signed in as" data-role={operator.role}>
              {operator.name} · {operator.role}
            </span>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                forgetToken();
                setToken(undefined);
                setRelay(undefined);
              }}
            >
              Sign out
            </button>
          </header>
          <nav class="sidebar" aria-label="Console sections">
            {NAV.map(([area, links]) => (
              <div class="nav-group" key={area}>
                <span class="nav-area">{area}</span>
                <ul>
                  {links
                    .filter(([, , needs]) => needs === undefined || roleAllows(operator.role, needs))
                    .map(([path, text]) => (
                      <li key={path}>
                        <a href={href(path)} aria-current={(route.parts[0] ?? 'companies') === path ? 'page' : undefined}>
                          {text}
                        </a>
                      </li>
                    ))}
                </ul>
              </div>
            ))}
          </nav>
          <main id="main" class="content">
            <CurrentPage route={route} />
          </main>
        </div>
      </OperatorContext.Provider>
    </ApiContext.Provider>
  );
}

function CurrentPage({ route }: { route: Route }) {
  const [section, id, sub, subId] = route.parts;
  switch (section) {
    case 'tenants':
      if (id === undefined) return <TenantsPage />;
      if (sub === 'templates' && subId !== undefined) return <TemplatePage tenantId={id} templateId={subId} />;
      if (sub === 'messages' && subId !== undefined) return <MessagePage tenantId={id} messageId={subId} />;
      if (sub === 'messages') return <MessagesPage tenantId={id} route={route} />;
      if (sub === 'webhooks') return <WebhooksPage owner={{ kind: 'tenant', id }} />;
      return <TenantPage tenantId={id} />;
    case 'applications':
      if (id === undefined) return <ApplicationsPage />;
      if (sub === 'webhooks') return <WebhooksPage owner={{ kind: 'application', id }} />;
      return <ApplicationPage applicationId={id} />;
    case undefined:
    case 'companies':
      return id === undefined ? <CompaniesPage route={route} /> : <CompanyPage companyId={Number(id)} />;
    case 'customers':
      // Reached from an application's customers; a customer has no console page of its own yet.
      if (id !== undefined && sub === 'connect-sessions') return <ConnectSessionsPage customerId={id} />;
      return <ApplicationsPage />;
    case 'connectors':
      return <ConnectorsPage />;
    case 'audit':
      return <AuditPage route={route} />;
    case 'operators':
      return <OperatorsPage />;
    case 'background-work':
      return <BackgroundLoopsPage />;
    case 'transactions':
      return id === undefined ? <TransactionsPage route={route} /> : <TransactionPage jobId={id} />;
    default:
      return (
        <section class="page">
          <h1>Page not found</h1>
          <p>
            There is no console page at this address. <a href={href('companies')}>Go to the companies</a>.
          </p>
        </section>
      );
  }
}
