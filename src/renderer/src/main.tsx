import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { installKeys } from './keys';
import { useStore } from './store';
import { startStore } from './store/wiring';
import './styles.css';

document.documentElement.dataset['theme'] = useStore.getState().theme;
startStore();
installKeys();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
