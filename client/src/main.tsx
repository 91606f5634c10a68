// zod is configured for the CSP where it is first imported: 'zod' resolves to shared/lib/zod-jitless.ts.
import './shared/ui/global.css';
import { allSettled, fork } from 'effector';
import { Provider } from 'effector-react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, appStarted } from './app';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// One scope per tab: every store lives in it, so tests fork their own the same way.
const scope = fork();

createRoot(root).render(
  <StrictMode>
    <Provider value={scope}>
      <App />
    </Provider>
  </StrictMode>,
);
void allSettled(appStarted, { scope });
