import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { installKeys } from './keys';
import { startWindow } from './route';
import { useStore } from './store';
import { startStore } from './wiring';
import './styles.css';
import './single.css';

document.documentElement.dataset['theme'] = useStore.getState().theme;
// Before the store's first load: a window of one view starts on it.
startWindow();
startStore();
installKeys();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
