// maintenance.html's entry: the field app alone (app/field-app.tsx says why it is not main.tsx's App).
import './shared/ui/global.css';
import { fork } from 'effector';
import { Provider } from 'effector-react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { FieldApp } from './app/field-app';

const root = document.getElementById('root');
if (!root) throw new Error('maintenance.html has no #root element');

// One scope per tab, as main.tsx: the page's model starts on its own pageMounted.
const scope = fork();

createRoot(root).render(
  <StrictMode>
    <Provider value={scope}>
      <FieldApp />
    </Provider>
  </StrictMode>,
);
