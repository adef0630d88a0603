// The connector's local page: polls the local API (with the per-start token from this page's URL) and
// renders the relay, the books, pairings, sync progress, recent jobs and the log in plain words.
/* global document, window */
'use strict';

const token = new URLSearchParams(window.location.search).get('token') || '';
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  if (method === 'POST' && body === undefined) body = {};
  const response = await fetch(path, {
    method,
    headers: { 'x-ui-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function text(element, value) {
  if (element.textContent !== value) element.textContent = value;
}

function showError(message) {
  const box = $('page-error');
  box.hidden = !message;
  text(box, message || '');
}

function renderStatus(status) {
  text($('version'), `version ${status.version}`);
  $('relay-state').dataset.state = status.relay.state;
  text($('relay-state'), status.relay.description);
  $('books-state').dataset.state = status.books.running === null ? '' : status.books.running ? 'running' : 'stopped';
  text($('books-state'), status.books.description);
  text($('queue-state'), status.queue.description);
  $('enrol').hidden = status.relay.state !== 'not_enrolled';
  $('pair-form').hidden = status.relay.state === 'not_enrolled';
  const list = $('pairings');
  const items = status.pairings.map((p) => `${companyLabel(p.companyId)}: ${p.description}`);
  if (items.length === 0) items.push('No company is paired yet.');
  list.replaceChildren(...items.map((line) => {
    const li = document.createElement('li');
    li.textContent = line;
    return li;
  }));
  text($('sync-state'), status.sync.description);
  const progress = $('sync-progress');
  if (status.sync.running && status.sync.percent !== null) progress.value = status.sync.percent;
  else if (status.sync.running) progress.removeAttribute('value');
  else progress.value = status.sync.lastSyncAt ? 100 : 0;
  $('sync-now').disabled = status.sync.running || status.relay.state !== 'online';
}

function renderJobs(jobs) {
  $('job-rows').replaceChildren(...jobs.map((job) => {
    const row = document.createElement('tr');
    row.dataset.state = job.state;
    row.dataset.jobId = job.jobId;
    // Which voucher or master first ("Receipt no. RCT/17"), then what was asked of the books.
    const what = job.subject ? `${job.subject} — ${job.kind}` : job.kind;
    for (const value of [job.jobId, what, job.state + (job.delivered ? '' : job.state === 'completed' || job.state === 'failed' ? ' (not yet reported)' : ''), job.explanation]) {
      const cell = document.createElement('td');
      cell.textContent = value;
      row.append(cell);
    }
    return row;
  }));
}

function renderLog(entries) {
  const box = $('log-lines');
  // Newest last, and kept in view unless the reader has scrolled up to read older lines.
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  text(box, entries.map((e) => `${e.at}  ${e.level.padEnd(5)}  ${e.message}`).join('\n'));
  if (atEnd) box.scrollTop = box.scrollHeight;
}

function fillSelect(select, options) {
  const current = select.value;
  select.replaceChildren(...options.map(([value, label]) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    return option;
  }));
  if (options.some(([value]) => value === current)) select.value = current;
}

/** The customer's companies as last listed (with the books company each is paired to), for the pair form. */
let customerCompanies = [];

/** "Sharma Traders (company 1)" once the customer's companies are listed, "company 1" until then. */
function companyLabel(companyId) {
  const known = customerCompanies.find((c) => c.company_id === companyId);
  return known ? `${known.name} (company ${companyId})` : `company ${companyId}`;
}

async function loadCompanies() {
  try {
    const data = await api('GET', '/api/companies');
    customerCompanies = data.customer;
    fillSelect($('pair-books'), data.books.map((c) => [c.guid, c.name]));
    fillSelect($('pair-company'), data.customer.map((c) => [String(c.company_id), `${c.name} (id ${c.company_id})${c.connector_id ? ' — paired' : ''}`]));
    if (data.problem) text($('pair-result'), `Your companies could not be listed: ${data.problem}`);
  } catch (error) {
    text($('pair-result'), `Companies could not be listed: ${error.message}`);
  }
}

/** What the company lists were loaded for: they are loaded again when the books or the pairings change. */
let companiesKey = '';
let lastStatus = null;

async function refresh() {
  try {
    const [status, jobs, log] = await Promise.all([api('GET', '/api/status'), api('GET', '/api/jobs'), api('GET', '/api/log')]);
    lastStatus = status;
    renderStatus(status);
    renderJobs(jobs.jobs);
    renderLog(log.entries);
    showError('');
    const key = JSON.stringify([status.relay.state === 'not_enrolled', status.books.running, status.books.description, status.pairings.map((p) => [p.companyId, p.booksCompanyName])]);
    if (key !== companiesKey && status.relay.state !== 'not_enrolled') {
      companiesKey = key;
      await loadCompanies();
    }
  } catch (error) {
    // fetch itself failing means nothing answered: the connector is not running (any more).
    showError(error instanceof TypeError
      ? 'The connector does not answer this page: it has stopped, or it started again at a new address. Open the address it printed (or its window) again; what is shown below may be out of date.'
      : `The connector refused this page: ${error.message}`);
  } finally {
    setTimeout(refresh, 1000);
  }
}

$('enrol-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new window.FormData(event.target);
  $('enrol-submit').disabled = true;
  $('enrol-result').className = '';
  text($('enrol-result'), 'Connecting…');
  try {
    const result = await api('POST', '/api/enrol', Object.fromEntries(form.entries()));
    text($('enrol-result'), `Connected as ${result.connectorId}.`);
    $('enrol-token').value = '';
    companiesKey = '';
  } catch (error) {
    $('enrol-result').className = 'problem';
    text($('enrol-result'), `Not connected: ${error.message}`);
  } finally {
    $('enrol-submit').disabled = false;
  }
});

/**
 * What a pairing would undo, in words: the books company is another company's now, or the company is
 * paired with another books company. Empty when it undoes nothing.
 */
function pairingTakeover(booksGuid, companyId) {
  const booksName = $('pair-books').selectedOptions[0]?.textContent ?? 'this company';
  const notes = [];
  const holder = customerCompanies.find((c) => c.books_company_guid === booksGuid && String(c.company_id) !== companyId);
  if (holder) notes.push(`"${booksName}" is paired with ${holder.name} (id ${holder.company_id}) now: pairing it here unpairs that company, whose jobs and sync then stop.`);
  const chosen = customerCompanies.find((c) => String(c.company_id) === companyId);
  if (chosen && chosen.books_company_guid && chosen.books_company_guid !== booksGuid) {
    notes.push(`${chosen.name} (id ${chosen.company_id}) is paired with "${chosen.books_company_name ?? 'another company'}" now: this replaces that pairing.`);
  }
  return notes.join(' ');
}

/** The selection a person was warned about; pressing Pair again with it goes ahead. */
let warnedPairing = '';

$('pair-form').addEventListener('change', () => {
  warnedPairing = '';
  text($('pair-result'), '');
});

$('pair-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const selection = `${$('pair-books').value}|${$('pair-company').value}`;
  const takeover = pairingTakeover($('pair-books').value, $('pair-company').value);
  if (takeover && warnedPairing !== selection) {
    warnedPairing = selection;
    $('pair-result').className = 'problem';
    text($('pair-result'), `${takeover} Press Pair again to go ahead.`);
    return;
  }
  warnedPairing = '';
  $('pair-result').className = '';
  $('pair-submit').disabled = true;
  try {
    const result = await api('POST', '/api/pair', { company_id: $('pair-company').value, books_company: $('pair-books').value });
    text($('pair-result'), `Paired company ${result.company.company_id} with "${result.company.books_company_name}".`);
    await loadCompanies();
  } catch (error) {
    text($('pair-result'), `Not paired: ${error.message}`);
  } finally {
    $('pair-submit').disabled = false;
  }
});

/** Why a sync now did nothing, from what the page last knew. */
function whyNothingSynced() {
  if (!lastStatus) return 'see the log.';
  if (lastStatus.books.running === false) return lastStatus.books.description;
  if (lastStatus.pairings.length === 0) return 'no company is paired yet.';
  return 'see the log.';
}

$('sync-now').addEventListener('click', async () => {
  $('sync-now').disabled = true;
  text($('sync-result'), 'Syncing…');
  try {
    const { results } = await api('POST', '/api/sync-now');
    text($('sync-result'), results.length === 0
      ? `Nothing was synced: ${whyNothingSynced()}`
      : results.map((r) => `${companyLabel(r.companyId)}: ${r.summary}`).join(' · '));
  } catch (error) {
    text($('sync-result'), `Sync failed: ${error.message}`);
  }
});

refresh();
