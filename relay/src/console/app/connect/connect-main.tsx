// Entry of the hosted connect page's bundle (built beside the console by relay/src/console/services/console-bundle.ts).
import { render } from 'preact';
import { ConnectPage } from './connect-page.js';
import { createConnectApi, pageLocation } from './connect-api.js';
import './connect.css';

const root = document.getElementById('app');
const { token, setupCode } = pageLocation(window.location);
if (root) render(<ConnectPage api={createConnectApi(token)} setupCode={setupCode} />, root);
