// Entry of the console's browser bundle (built by build/build.mjs into relay/dist/console, served by console-bundle.ts).
import { render } from 'preact';
import { ConsoleApp } from './console-app.js';
import './console.css';

const root = document.getElementById('app');
if (root) render(<ConsoleApp />, root);
