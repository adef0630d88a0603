// Entry of the connector page's browser bundle (built by ../page-bundle.ts). The API token of this
// start comes in the page's address (?token=…), as the connector printed it or its window opened it.
import { render } from 'preact';
import { ConnectorPage } from './connector-page.js';
import { createLocalApi } from './local-api.js';
import './connector-page.css';

const root = document.getElementById('app');
const token = new URLSearchParams(window.location.search).get('token') ?? '';
if (root) render(<ConnectorPage api={createLocalApi(token)} />, root);
