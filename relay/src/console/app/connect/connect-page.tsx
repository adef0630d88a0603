// The hosted connect page a shop owner follows from the integrator's link: download the connector,
// type the code, watch it come online, choose which TallyPrime company is theirs, done (then back to
// the integrator). It polls its state every two seconds until the session ends, and every waiting
// state says what to do on the computer where TallyPrime runs.
import type { ConnectPageOut } from '@ledgerwire/shared';
import { ErrorNotice, Notice, useAction, useAutoRefresh } from '@ledgerwire/ui-kit';
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ConnectPageError, type ConnectApi } from './connect-api.js';

const POLL_MS = 2000;
const RETURN_AFTER_MS = 5000;
const noRefresh = () => undefined;

type StepState = 'now' | 'done' | 'later';

function Step(props: { number: number; title: string; state: StepState; children?: ComponentChildren }) {
  return (
    <li class="connect-step" data-state={props.state} aria-current={props.state === 'now' ? 'step' : undefined} data-step={props.number}>
      <h2>
        {props.number}. {props.title}
      </h2>
      {props.state !== 'later' && props.children}
    </li>
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function waitingWords(state: ConnectPageOut): ComponentChildren {
  const machine = state.connector?.machine_name ?? 'that computer';
  switch (state.waiting) {
    case 'connector_offline':
      return `The connector on ${machine} is not connected right now. Check that the computer is on and has internet, and that the Ledgerwire connector is running (start it from the Start menu if its icon is not in the taskbar).`;
    case 'books_closed':
      return `The connector on ${machine} cannot reach TallyPrime. Open TallyPrime there. If it is open already, turn on its XML port: press F1 (Help) > Settings > Connectivity, set "TallyPrime acts as" to Server or Both with port 9000, then restart TallyPrime.`;
    case 'no_company_open':
      return `TallyPrime is running on ${machine} but has no company open. Open the company that holds ${state.company_name}'s books in TallyPrime.`;
    case 'enrolled_for_another_customer':
      return `The connector on ${machine} is now connected for another business. Ask your software provider for a new link before you change it, so that both businesses keep working.`;
    default:
      return null;
  }
}

function Ended(props: { title: string; children: ComponentChildren }) {
  return (
    <main class="connect" id="connect-page">
      <h1>{props.title}</h1>
      <Notice tone="warning">{props.children}</Notice>
    </main>
  );
}

export function ConnectPage(props: { api: ConnectApi; setupCode: string | undefined }) {
  const { api } = props;
  const [state, setState] = useState<ConnectPageOut | undefined>();
  const [error, setError] = useState<unknown>();
  const [chosen, setChosen] = useState('');
  const action = useAction();
  const refresh = useCallback(() => {
    api.state().then(
      (next) => {
        setState(next);
        setError(undefined);
      },
      (failure: unknown) => setError(failure),
    );
  }, [api]);
  useEffect(refresh, [refresh]);
  const over = state !== undefined && (state.status === 'completed' || state.status === 'expired' || state.status === 'cancelled');
  const unknownLink = error instanceof ConnectPageError && error.status === 404;
  useAutoRefresh(over || unknownLink ? noRefresh : refresh, POLL_MS);
  const returnUrl = state?.status === 'completed' ? state.return_url : null;
  useEffect(() => {
    if (!returnUrl) return undefined;
    const timer = setTimeout(() => window.location.assign(returnUrl), RETURN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [returnUrl]);

  if (unknownLink) {
    return <Ended title="This link does not work">This connect link is not known. Check that it was copied whole, or ask your software provider to send you a new link.</Ended>;
  }
  if (!state) {
    return (
      <main class="connect" id="connect-page" aria-busy={error ? undefined : 'true'}>
        <h1>Connect TallyPrime</h1>
        {error ? <ErrorNotice error={error} /> : <p class="muted">Loading…</p>}
      </main>
    );
  }
  if (state.status === 'expired') {
    return (
      <Ended title="This link has expired">
        This link to connect {state.company_name} has expired, and the code that came with it no longer works. Ask your software provider to send you a new connect link.
      </Ended>
    );
  }
  if (state.status === 'cancelled') {
    return (
      <Ended title="This link was cancelled">
        Your software provider cancelled this link to connect {state.company_name}, so its code no longer works. If you still want to connect TallyPrime, ask them for a new link.
      </Ended>
    );
  }

  const enrolled = state.status !== 'pending';
  const completed = state.status === 'completed';
  const online = state.connector?.online === true && state.waiting === null && state.books_companies.length > 0;
  const step = (reached: boolean, done: boolean): StepState => (done ? 'done' : reached ? 'now' : 'later');
  const choose = (event: Event) => {
    event.preventDefault();
    void action.run(async () => setState(await api.choose(chosen)));
  };

  return (
    <main class="connect" id="connect-page">
      <h1>Connect TallyPrime for {state.customer_name}</h1>
      <p class="intro">
        Follow these steps on the computer where TallyPrime runs, to connect <strong>{state.company_name}</strong>. This page follows along by itself.
      </p>
      <ErrorNotice error={error} />
      <ol class="connect-steps">
        <Step number={1} title="Download the connector" state={step(true, enrolled)}>
          {state.installer.available ? (
            <>
              <p>
                <a class="button" href={api.installerUrl} download id="download-installer">
                  Download the connector for Windows ({megabytes(state.installer.size_bytes ?? 0)})
                </a>
              </p>
              <p class="muted">
                Run it on the computer with TallyPrime; it needs no administrator rights. To check the download, its SHA-256 is <span class="checksum">{state.installer.sha256}</span>.
              </p>
            </>
          ) : (
            <p id="installer-missing">Ask your software provider for the Ledgerwire connector installer for Windows, and run it on the computer where TallyPrime runs.</p>
          )}
        </Step>
        <Step number={2} title="Type the code into the connector" state={step(true, enrolled)}>
          {props.setupCode ? (
            <p>
              When the connector's page opens, type this code: <span class="setup-code" id="setup-code">{props.setupCode}</span>
            </p>
          ) : (
            <p>When the connector's page opens, type the setup code your software provider gave you (it looks like K7QP-M3XD).</p>
          )}
          {!enrolled && <p class="muted">The code works once. This page moves on as soon as the connector has it.</p>}
        </Step>
        <Step number={3} title="The connector comes online" state={step(enrolled, online || completed)}>
          {state.waiting ? (
            <Notice tone="warning" label="What to do">
              {waitingWords(state)}
            </Notice>
          ) : enrolled && !completed && !online ? (
            <p class="muted">Waiting for the connector on {state.connector?.machine_name ?? 'your computer'} to report TallyPrime's companies…</p>
          ) : state.connector ? (
            <p>
              Online on <strong>{state.connector.machine_name}</strong>, with TallyPrime running.
            </p>
          ) : null}
        </Step>
        <Step number={4} title={`Choose which TallyPrime company is "${state.company_name}"`} state={step(online, completed)}>
          {completed ? (
            <p>
              <strong>{state.paired_books_company_name ?? 'The company'}</strong> in TallyPrime is now {state.company_name}.
            </p>
          ) : (
            <form onSubmit={choose} aria-label="Choose the TallyPrime company">
              <fieldset class="books-choice">
                <legend class="muted">Companies open in TallyPrime now:</legend>
                {state.books_companies.map((books) => (
                  <label key={books.guid}>
                    <input type="radio" name="books-company" value={books.guid} checked={chosen === books.guid} onChange={() => setChosen(books.guid)} />
                    {books.name}
                  </label>
                ))}
              </fieldset>
              <button type="submit" disabled={chosen === '' || action.busy}>
                {action.busy ? 'Connecting…' : `This is ${state.company_name}`}
              </button>
              <p class="muted">Not in the list? Open that company in TallyPrime; the list updates by itself.</p>
              <ErrorNotice error={action.error} title="Not connected:" />
            </form>
          )}
        </Step>
        <Step number={5} title="Done" state={step(completed, false)}>
          <Notice tone="success" label="Connected">
            {state.company_name} is connected. You can close TallyPrime's connector window; it keeps running in the background.
          </Notice>
          {returnUrl && (
            <p>
              <a class="button" href={returnUrl} id="return-link">
                Back to your software
              </a>{' '}
              <span class="muted">(this page goes there by itself in a few seconds)</span>
            </p>
          )}
        </Step>
      </ol>
    </main>
  );
}
