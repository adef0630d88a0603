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
  const items = status.pairings.map((p) => `company ${p.companyId}: ${p.description}`);
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
    for (const value of [job.jobId, job.kind, job.state + (job.delivered ? '' : job.state === 'completed' || job.state === 'failed' ? ' (not yet reported)' : ''), job.explanation]) {
      const cell = document.createElement('td');
      cell.textContent = value;
      row.append(cell);
    }
    return row;
  }));
}

function renderLog(entries) {
  text($('log-lines'), entries.map((e) => `${e.at}  ${e.level.padEnd(5)}  ${e.message}`).join('\n'));
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

async function loadCompanies() {
  try {
    const data = await api('GET', '/api/companies');
    fillSelect($('pair-books'), data.books.map((c) => [c.guid, c.name]));
    fillSelect($('pair-company'), data.customer.map((c) => [String(c.company_id), `${c.name} (id ${c.company_id})${c.connector_id ? ' — paired' : ''}`]));
    if (data.problem) text($('pair-result'), `Your companies could not be listed: ${data.problem}`);
  } catch (error) {
    text($('pair-result'), `Companies could not be listed: ${error.message}`);
  }
}

let companiesLoaded = false;

async function refresh() {
  try {
    const [status, jobs, log] = await Promise.all([api('GET', '/api/status'), api('GET', '/api/jobs'), api('GET', '/api/log')]);
    renderStatus(status);
    renderJobs(jobs.jobs);
    renderLog(log.entries);
    showError('');
    if (!companiesLoaded && status.relay.state !== 'not_enrolled') {
      companiesLoaded = true;
      await loadCompanies();
    }
  } catch (error) {
    showError(`The connector is not answering: ${error.message}`);
  } finally {
    setTimeout(refresh, 1000);
  }
}

$('enrol-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new window.FormData(event.target);
  $('enrol-submit').disabled = true;
  text($('enrol-result'), 'Connecting…');
  try {
    const result = await api('POST', '/api/enrol', Object.fromEntries(form.entries()));
    text($('enrol-result'), `Connected as ${result.connectorId}.`);
    $('enrol-token').value = '';
    companiesLoaded = false;
  } catch (error) {
    text($('enrol-result'), `Not connected: ${error.message}`);
  } finally {
    $('enrol-submit').disabled = false;
  }
});

$('pair-form').addEventListener('submit', async (event) => {
  event.preventDefault();
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

$('sync-now').addEventListener('click', async () => {
  $('sync-now').disabled = true;
  try {
    await api('POST', '/api/sync-now');
  } catch (error) {
    showError(`Sync failed: ${error.message}`);
  }
});

refresh();
