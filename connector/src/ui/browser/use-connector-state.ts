// Keeps the page's picture of the connector current: status, recent jobs and the log, asked for once a
// second (four times a second while a sync runs, so its bar moves with it), and the company lists
// when what they depend on changes (enrolment, the books, the pairings) or an action asks for them.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { CompanyLists, ConnectorStatus, JobView, LocalApi, LogEntry } from './local-api.js';
import { LocalApiError } from './local-api.js';

const IDLE_POLL_MS = 1000;
const SYNC_POLL_MS = 250;

export type ConnectorState = Readonly<{
  status: ConnectorStatus | undefined;
  jobs: readonly JobView[];
  log: readonly LogEntry[];
  /** Why the last refresh failed (the page says so above what it last knew), or undefined. */
  problem: LocalApiError | undefined;
  companies: CompanyLists | undefined;
  companiesProblem: string | undefined;
  /** When the picture was taken: relative times ("2 minutes ago") are counted from it. */
  at: Date;
  /** Refresh now, the company lists too (after an action changed them). */
  refresh: () => void;
}>;

/** What the company lists depend on: they are asked for again when it changes. */
function companiesKey(status: ConnectorStatus): string {
  return JSON.stringify([status.relay.state === 'not_enrolled', status.books.running, status.books.companies.map((c) => c.guid), status.pairings.map((p) => [p.companyId, p.booksCompanyGuid, p.confirmed])]);
}

export function useConnectorState(api: LocalApi): ConnectorState {
  const [picture, setPicture] = useState<Omit<ConnectorState, 'refresh' | 'companies' | 'companiesProblem'>>({ status: undefined, jobs: [], log: [], problem: undefined, at: new Date() });
  const [companies, setCompanies] = useState<{ lists?: CompanyLists; problem?: string }>({});
  const [generation, setGeneration] = useState(0);
  const loadedFor = useRef('');

  const loadCompanies = useCallback(async () => {
    try {
      const lists = await api.companies();
      setCompanies({ lists, ...(lists.problem ? { problem: `Your companies could not be listed: ${lists.problem}` } : {}) });
    } catch (error) {
      setCompanies((previous) => ({ ...previous, problem: `Companies could not be listed: ${error instanceof Error ? error.message : String(error)}` }));
    }
  }, [api]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current = true;
    const tick = async () => {
      let running = false;
      try {
        const [status, jobs, log] = await Promise.all([api.status(), api.jobs(), api.log()]);
        if (!current) return;
        running = status.sync.running;
        setPicture({ status, jobs: jobs.jobs, log: log.entries, problem: undefined, at: new Date() });
        const key = companiesKey(status);
        if (status.relay.state !== 'not_enrolled' && key !== loadedFor.current) {
          loadedFor.current = key;
          await loadCompanies();
        }
      } catch (error) {
        if (!current) return;
        const problem = error instanceof LocalApiError ? error : new LocalApiError(String(error), true);
        setPicture((previous) => ({ ...previous, problem: new LocalApiError(problem.answered ? `The connector refused this page: ${problem.message}` : problem.message, problem.answered) }));
      } finally {
        if (current) timer = setTimeout(() => void tick(), running ? SYNC_POLL_MS : IDLE_POLL_MS);
      }
    };
    void tick();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, loadCompanies, generation]);

  const refresh = useCallback(() => {
    loadedFor.current = '';
    setGeneration((g) => g + 1);
  }, []);

  return { ...picture, companies: companies.lists, companiesProblem: companies.problem, refresh };
}
